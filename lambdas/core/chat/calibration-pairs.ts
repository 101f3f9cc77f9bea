/**
 * The fixed calibration set of the relevance gate (calibration.ts): questions,
 * each with a passage that answers it in other words. Pairs are of the kinds
 * a library holds (everyday notes, a conversation's turns, work documents,
 * facts from papers), short, and written apart from every benchmark and test
 * set. Every question against the other pairs' passages gives the unrelated
 * side of the scale. Changing this list changes every embedder's scale:
 * docs/chat.md says how to measure the gate again.
 */
export const CALIBRATION_PAIRS: ReadonlyArray<readonly [question: string, passage: string]> = [
  ['when is the window cleaner coming', 'Window cleaner booked for Thursday morning, around 10, front and back.'],
  [
    'how much did the new glasses cost',
    'Picked up my new specs from Vision Express today, £189 with the thinner lenses.',
  ],
  ['why did we move the party', 'Party pushed back a week because half the guests are away at half term.'],
  ['what did the mechanic find', 'Garage rang: the clutch is worn and the cambelt is due, about £600 for both.'],
  ['where did I park at the airport', 'Parked in the long stay car park, zone F, row 12, near the bus shelter.'],
  ['what is the wifi password at the cottage', 'Cottage wifi: network SeaView, password gull-lighthouse-42.'],
  ['who is picking the kids up on Friday', "Gran is doing the school run on Friday, I'm in London all day."],
  ['what did we agree about the fence', 'Spoke to next door: we split the cost of the new fence panels fifty-fifty.'],
  [
    'when does the library book need returning',
    'Library loan of "Circe" is due back on the 30th, renewals allowed online.',
  ],
  [
    'how do I reset the boiler',
    'If the boiler shows F28, hold the reset button for five seconds and check the pressure is above 1 bar.',
  ],
  [
    'what did the estate agent value the flat at',
    'Agent came round, thinks the flat would sell for between £310k and £325k.',
  ],
  ['which vaccine does the cat need', 'Cat is due her annual booster for cat flu and enteritis in March.'],
  [
    'how was the trip to Edinburgh',
    'Edinburgh was lovely, climbed Arthur’s Seat, rained every afternoon, ate far too much shortbread.',
  ],
  [
    'did you end up getting the job',
    'I heard back from the interview on Monday, they offered me the position and I said yes!',
  ],
  [
    'what are you doing this weekend',
    "This weekend I'm helping my brother move house, then a quiet Sunday with a film.",
  ],
  ['how is your mum feeling', 'Mum is recovering well after the operation, she is walking around the garden again.'],
  [
    'what did you think of the concert',
    'The concert was amazing, the band played for two hours and the crowd sang every song.',
  ],
  [
    'why were you late yesterday',
    'Sorry about yesterday, the train was cancelled and I had to wait forty minutes for a bus.',
  ],
  [
    'have you started painting again',
    "I've been painting watercolours every evening, mostly landscapes of the lake near our house.",
  ],
  ['where did you go on holiday', 'We spent two weeks in Crete, a little village by the sea, swimming every morning.'],
  [
    'what is the deadline for the quarterly report',
    'The Q3 report must be submitted to finance by 15 October, signed off by the director.',
  ],
  [
    'who approves travel expenses',
    'Travel claims over £500 need sign-off from your line manager and then from finance.',
  ],
  [
    'what did the client ask for in the meeting',
    'Client wants the launch moved forward to June and a Spanish version of the app.',
  ],
  [
    'how many people signed up for the workshop',
    'Workshop registrations closed with 46 attendees and 12 on the waiting list.',
  ],
  ['what was decided about the office move', 'Leadership agreed to move to the new office on Canal Street in January.'],
  [
    'which database are we migrating to',
    'The platform team will move the orders service from MySQL to PostgreSQL this quarter.',
  ],
  [
    'what is the refund policy',
    'Customers can return unused items within 30 days for a full refund to the original payment method.',
  ],
  [
    'when does the contract with the supplier end',
    'Our agreement with Brightline Logistics runs until the end of March next year.',
  ],
  [
    'does vitamin D reduce fractures in older adults',
    'In a trial of 2,000 people over 70, vitamin D supplements did not lower the rate of hip fractures.',
  ],
  [
    'what causes the seasons on Earth',
    "Earth's axis is tilted about 23 degrees, so each hemisphere gets more direct sunlight for part of the year.",
  ],
  [
    'how do bees find flowers',
    'Honeybees use the position of the sun and a waggle dance to tell hive mates where nectar is.',
  ],
  [
    'is coffee linked to heart disease',
    'A cohort study found moderate coffee drinking was not associated with higher cardiovascular risk.',
  ],
  [
    'why is the sky blue',
    'Air molecules scatter short blue wavelengths of sunlight more than red ones, so the sky looks blue.',
  ],
  ['what does insulin do', 'Insulin lets cells take up glucose from the blood, lowering blood sugar after a meal.'],
  ['how long do sea turtles live', 'Green sea turtles can live for 80 years or more and reach maturity at around 30.'],
  [
    'what makes bread rise',
    'Yeast ferments the sugars in dough and releases carbon dioxide, which makes the loaf expand.',
  ],
  [
    'what is the recipe for the lemon cake',
    'Lemon cake: 200g butter, 200g sugar, 4 eggs, 200g self-raising flour, zest of two lemons, 40 minutes at 180.',
  ],
  [
    'which plants are safe for cats',
    'Spider plants, calatheas and Boston ferns are not toxic to cats; lilies are very dangerous.',
  ],
  ['how much should I tip in the US', 'In American restaurants a tip of 18 to 20 percent of the bill is expected.'],
  [
    'what time does the pharmacy close on Sunday',
    'Boots on the corner is open 10 till 4 on Sundays, closed bank holidays.',
  ],
];
