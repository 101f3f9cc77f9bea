import type { EverydaySet } from './everyday-notes.js';

/**
 * Twelve notes of everyday life in other words than their questions use,
 * written to tune on (2026-11-29) as a new user's first library: a car that
 * would not turn over, a rent rise, a review that moved, a trip, a vet's
 * visit, prices compared, ... In a library this small the closest note can
 * stand out in meaning only by being about the same sort of thing, so its
 * unrelated questions ask about things next door to the notes' ("when is
 * the car MOT due", "how much is the council tax").
 */
export const TRAIN_SMALL: EverydaySet = {
  notes: [
    {
      id: 'car',
      text: "Monday: the Golf wouldn't turn over this morning. AA came out, battery was dead, they jump started it and said replace it soon. Got a new battery fitted at Halfords on Wednesday for £129.",
    },
    {
      id: 'rent',
      text: 'Email from the letting agent: from 1 February the rent rises to £1,150 per month (currently £1,075). Tenancy renewal for another 12 months, need to sign by 15 January.',
    },
    {
      id: 'meeting',
      text: 'The quarterly review with Sarah has moved from Thursday to Friday 14 March at 11am, same room (3B). Bring the sales figures.',
    },
    {
      id: 'trip',
      text: 'Booked the Edinburgh trip: train on 18 April at 07:30 from Kings Cross, returning 21 April. Airbnb in Leith, £312 for three nights. Booking ref EDB-4471.',
    },
    {
      id: 'vet',
      text: 'Took Biscuit to the vet, ear infection again. Drops twice a day for ten days, check-up on 2 May at 9:40. Cost £74 with the drops.',
    },
    {
      id: 'groceries',
      text: "Compared prices for the weekly shop: Tesco £86, Aldi £61, Sainsbury's £79 for the same basket.",
    },
    {
      id: 'boiler',
      text: 'Boiler making a banging noise. British Gas engineer booked for Tuesday 8am-1pm. Annual service was due anyway, £95.',
    },
    {
      id: 'school',
      text: "Parents' evening for Noah on 27 March, 5:10pm with Mrs Patel. His reading is good, needs more practice with times tables.",
    },
    {
      id: 'gym',
      text: 'Switched gyms: left Fitness First (£45 a month) for The Gym Group (£24.99 a month) because it is open 24 hours and closer to work.',
    },
    {
      id: 'dentist',
      text: 'Dental check-up booked with Dr Shah for 9 June at 4pm. Need a filling on the lower left, will cost £68 on the NHS band 2.',
    },
    {
      id: 'insurance',
      text: 'Home insurance renewal quote from Direct Line is £412, last year was £356. Got a quote from Aviva for £338 instead, going with Aviva.',
    },
    {
      id: 'garden',
      text: "Asked Tom next door if he'd share the cost of a new fence. He agreed to split it 50/50, the panels come to £640 in total.",
    },
  ],
  questions: [
    {
      question: 'summarise what happened with the car',
      answers: ['car'],
      ask: 'summary',
    },
    {
      question: 'give me a summary of the problem with my car',
      answers: ['car'],
      ask: 'summary',
    },
    {
      question: 'list my appointments',
      answers: ['meeting', 'vet', 'boiler', 'school', 'dentist'],
      ask: 'list',
    },
    {
      question: 'what appointments do I have',
      answers: ['meeting', 'vet', 'boiler', 'school', 'dentist'],
      ask: 'list',
    },
    {
      question: 'how much is the rent going up by',
      answers: ['rent'],
      ask: 'amount',
    },
    {
      question: 'how much more will I pay the landlord each month',
      answers: ['rent'],
      ask: 'amount',
    },
    {
      question: 'make a table of the supermarket prices',
      answers: ['groceries'],
      ask: 'table',
    },
    {
      question: 'put the shopping costs in a table',
      answers: ['groceries'],
      ask: 'table',
    },
    {
      question: 'when is the review with Sarah now',
      answers: ['meeting'],
      ask: 'date',
    },
    {
      question: 'when is my meeting',
      answers: ['meeting'],
      ask: 'date',
    },
    {
      question: 'what time does my train leave for Scotland',
      answers: ['trip'],
      ask: 'date',
    },
    {
      question: 'how much did the accommodation cost',
      answers: ['trip'],
      ask: 'amount',
    },
    {
      question: 'what is wrong with the dog',
      answers: ['vet'],
      ask: 'fact',
    },
    {
      question: 'how much did the vet charge',
      answers: ['vet'],
      ask: 'amount',
    },
    {
      question: 'which supermarket is cheapest',
      answers: ['groceries'],
      ask: 'fact',
    },
    {
      question: 'when is the engineer coming',
      answers: ['boiler'],
      ask: 'date',
    },
    {
      question: 'how is Noah doing at school',
      answers: ['school'],
      ask: 'fact',
    },
    {
      question: 'why did I change gyms',
      answers: ['gym'],
      ask: 'reason',
    },
    {
      question: 'how much am I saving on the gym',
      answers: ['gym'],
      ask: 'amount',
    },
    {
      question: 'when is my next dental appointment',
      answers: ['dentist'],
      ask: 'date',
    },
    {
      question: 'what did we decide about the home insurance',
      answers: ['insurance'],
      ask: 'decision',
    },
    {
      question: 'which insurer did I go with',
      answers: ['insurance'],
      ask: 'decision',
    },
    {
      question: 'what did the neighbour agree about the fence',
      answers: ['garden'],
      ask: 'decision',
    },
    {
      question: 'how much is my share of the fence',
      answers: ['garden'],
      ask: 'amount',
    },
    {
      question: 'list everything I have spent money on',
      answers: ['car', 'rent', 'trip', 'vet', 'groceries', 'boiler', 'gym', 'dentist', 'insurance', 'garden'],
      ask: 'list',
    },
    {
      question: 'make a table of the insurance quotes',
      answers: ['insurance'],
      ask: 'table',
    },
    {
      question: 'what is the booking reference for Edinburgh',
      answers: ['trip'],
      ask: 'fact',
    },
    {
      question: 'when do I have to sign the tenancy',
      answers: ['rent'],
      ask: 'date',
    },
  ],
  unrelated: [
    'when is my eye test',
    'how much did the new sofa cost',
    'what did the plumber say about the shower',
    'list the books I read last year',
    'what is the wifi password',
    'when is the car MOT due',
    'who won the match on Saturday',
    'how much is the council tax',
  ],
};

/**
 * Eight short notes as issue 18 describes its new user's library (a car that
 * would not start, a rent increase, a meeting that moved, a trip booked, a
 * note listing three prices, two appointments, plants), with the requests
 * it names asked in other words: summarise what happened, list the
 * appointments, how much, a table of the prices. Written to tune on.
 */
export const TRAIN_ISSUE: EverydaySet = {
  notes: [
    {
      id: 'car',
      text: "Car wouldn't start this morning. Turned out the battery was flat; the RAC man jump-started it and I bought a new battery for £115.",
    },
    {
      id: 'rent',
      text: 'Landlord wrote: rent going up from £900 to £960 a month from 1 April.',
    },
    {
      id: 'meeting',
      text: 'Project meeting moved from Tuesday to Thursday 10am because Priya is off sick.',
    },
    {
      id: 'trip',
      text: 'Booked the trip to Rome: flights 12-16 May with easyJet, £230 for both of us. Hotel near the Pantheon.',
    },
    {
      id: 'prices',
      text: 'Printer ink prices: HP original £32, Cartridge People £14, Amazon compatible £11.',
    },
    {
      id: 'doctor',
      text: 'GP appointment on Friday at 9:20 about the knee.',
    },
    {
      id: 'haircut',
      text: 'Haircut with Jo next Wednesday at 5:30pm.',
    },
    {
      id: 'plants',
      text: 'Repotted the monstera and the fern. Water the fern twice a week.',
    },
  ],
  questions: [
    {
      question: 'Summarise what happened with the car',
      answers: ['car'],
      ask: 'summary',
    },
    {
      question: 'Can you summarize the car problem?',
      answers: ['car'],
      ask: 'summary',
    },
    {
      question: 'give me a quick summary of the car trouble',
      answers: ['car'],
      ask: 'summary',
    },
    {
      question: 'What happened with my car?',
      answers: ['car'],
      ask: 'summary',
    },
    {
      question: 'List my appointments',
      answers: ['doctor', 'haircut', 'meeting'],
      ask: 'list',
    },
    {
      question: 'What appointments have I got coming up?',
      answers: ['doctor', 'haircut', 'meeting'],
      ask: 'list',
    },
    {
      question: 'list all the appointments',
      answers: ['doctor', 'haircut', 'meeting'],
      ask: 'list',
    },
    {
      question: 'How much is the rent going up?',
      answers: ['rent'],
      ask: 'amount',
    },
    {
      question: 'how much extra rent will I pay',
      answers: ['rent'],
      ask: 'amount',
    },
    {
      question: 'what will the new rent be',
      answers: ['rent'],
      ask: 'fact',
    },
    {
      question: 'Make a table of the prices',
      answers: ['prices'],
      ask: 'table',
    },
    {
      question: 'put the ink prices in a table',
      answers: ['prices'],
      ask: 'table',
    },
    {
      question: 'Show me a table comparing the cartridge prices',
      answers: ['prices'],
      ask: 'table',
    },
    {
      question: 'tabulate the printer ink costs',
      answers: ['prices'],
      ask: 'table',
    },
    {
      question: 'When is the meeting now?',
      answers: ['meeting'],
      ask: 'date',
    },
    {
      question: 'why was the meeting moved',
      answers: ['meeting'],
      ask: 'reason',
    },
    {
      question: 'how much did the Rome flights cost',
      answers: ['trip'],
      ask: 'amount',
    },
    {
      question: 'when are we going to Rome',
      answers: ['trip'],
      ask: 'date',
    },
    {
      question: 'where are we staying in Rome',
      answers: ['trip'],
      ask: 'fact',
    },
    {
      question: 'how much was the new battery',
      answers: ['car'],
      ask: 'amount',
    },
    {
      question: 'what time is my haircut',
      answers: ['haircut'],
      ask: 'date',
    },
    {
      question: 'when do I see the doctor',
      answers: ['doctor'],
      ask: 'date',
    },
    {
      question: 'how often should I water the fern',
      answers: ['plants'],
      ask: 'fact',
    },
    {
      question: 'what did I do with the plants',
      answers: ['plants'],
      ask: 'fact',
    },
  ],
  unrelated: [
    'when is my eye test',
    'how much did the new sofa cost',
    'what is the capital of France',
    'list the books I read last year',
    'what is the wifi password',
    'when is the dentist',
    'how much is the council tax',
    'summarise the meeting with the bank',
  ],
};

/**
 * Sixteen notes of a family's everyday life, written after the rule that a
 * note standing out in meaning must name what the question asks about
 * (relevance.ts, leadNamesSubject) and measured with and without it before
 * any further change (docs/benchmarks.md, bench:everyday).
 */
export const HELD_OUT_4: EverydaySet = {
  notes: [
    {
      id: 'washer',
      text: 'Washing machine stopped spinning mid-cycle. Engineer from Hotpoint came Tuesday, replaced the drive belt, £95 including call-out.',
    },
    {
      id: 'mortgage',
      text: 'Spoke to the broker: fixing the mortgage for 5 years at 4.1% with Nationwide. Arrangement fee £999, added to the loan.',
    },
    {
      id: 'party',
      text: "Leo's 8th birthday party at the trampoline park on Saturday 14 June, 2-4pm. 12 kids invited, £15 a head.",
    },
    {
      id: 'flight',
      text: 'Flights to Malaga booked for 2 August, BA 2710 from Gatwick at 06:50. Back on 9 August. Seats 23A-C.',
    },
    {
      id: 'electric',
      text: 'Switched energy supplier to Octopus. Direct debit £142 a month instead of £168 with British Gas.',
    },
    {
      id: 'optician',
      text: 'Eye test at Specsavers on Monday 3 March at 10:15. Bring current glasses.',
    },
    {
      id: 'pension',
      text: 'Moved my old workplace pension into the SIPP with Vanguard, about £23,000 transferred.',
    },
    {
      id: 'bins',
      text: 'Bin day changed to Wednesday from next week. Recycling every other week, green bin in the garden.',
    },
    {
      id: 'piano',
      text: "Mia's piano lessons with Mrs Cole, Thursdays 4:30, £22 per half hour. Grade 2 exam in November.",
    },
    {
      id: 'loft',
      text: 'Loft insulation quotes: Warmfront £650, EcoHome £480, local builder £520. Going with EcoHome in April.',
    },
    {
      id: 'passport',
      text: "Renewed Sam's passport online on 5 May. Should arrive within 3 weeks. Photo code used from the booth.",
    },
    {
      id: 'cat',
      text: 'Pepper is limping on her back leg. Vet thinks a sprain, anti-inflammatories for a week, £48.',
    },
    {
      id: 'car',
      text: 'Car tax renewed online, £190 for the year. MOT booked at Kwik Fit for 20 September.',
    },
    {
      id: 'school',
      text: 'Secondary school applications open on 1 September. We are putting Hillside first, Oakwood second.',
    },
    {
      id: 'clubs',
      text: 'Football club fees for Jack: £120 per term, training Tuesdays and Saturdays.',
    },
    {
      id: 'wifi',
      text: 'Router reset fixed the slow internet. New wifi password is written on the back of the fridge calendar.',
    },
  ],
  questions: [
    {
      question: 'what was wrong with the washing machine',
      answers: ['washer'],
      ask: 'fact',
    },
    {
      question: 'how much was the repair to the washer',
      answers: ['washer'],
      ask: 'amount',
    },
    {
      question: 'what rate did we get on the mortgage',
      answers: ['mortgage'],
      ask: 'fact',
    },
    {
      question: 'summarise the mortgage decision',
      answers: ['mortgage'],
      ask: 'summary',
    },
    {
      question: "when is Leo's party",
      answers: ['party'],
      ask: 'date',
    },
    {
      question: 'how much is the party costing per child',
      answers: ['party'],
      ask: 'amount',
    },
    {
      question: 'what time is our flight to Spain',
      answers: ['flight'],
      ask: 'date',
    },
    {
      question: 'when do we fly back',
      answers: ['flight'],
      ask: 'date',
    },
    {
      question: 'how much are we saving on energy',
      answers: ['electric'],
      ask: 'amount',
    },
    {
      question: 'which energy company are we with now',
      answers: ['electric'],
      ask: 'fact',
    },
    {
      question: 'when is my eye appointment',
      answers: ['optician'],
      ask: 'date',
    },
    {
      question: 'how much did I move into the new pension',
      answers: ['pension'],
      ask: 'amount',
    },
    {
      question: 'which day are the bins collected',
      answers: ['bins'],
      ask: 'date',
    },
    {
      question: 'how much do the piano lessons cost',
      answers: ['piano'],
      ask: 'amount',
    },
    {
      question: 'when is Mia doing her exam',
      answers: ['piano'],
      ask: 'date',
    },
    {
      question: 'make a table of the insulation quotes',
      answers: ['loft'],
      ask: 'table',
    },
    {
      question: 'who did we choose for the loft',
      answers: ['loft'],
      ask: 'decision',
    },
    {
      question: 'when will the new passport arrive',
      answers: ['passport'],
      ask: 'date',
    },
    {
      question: 'what is wrong with the cat',
      answers: ['cat'],
      ask: 'fact',
    },
    {
      question: 'how much was the vet',
      answers: ['cat'],
      ask: 'amount',
    },
    {
      question: 'when is the car due its MOT',
      answers: ['car'],
      ask: 'date',
    },
    {
      question: 'which school did we put first',
      answers: ['school'],
      ask: 'decision',
    },
    {
      question: 'how much are the football fees',
      answers: ['clubs'],
      ask: 'amount',
    },
    {
      question: 'where is the wifi password',
      answers: ['wifi'],
      ask: 'fact',
    },
    {
      question: 'list the appointments coming up',
      answers: ['optician', 'party', 'car'],
      ask: 'list',
    },
    {
      question: 'make a table of what I pay each month',
      answers: ['electric'],
      ask: 'table',
    },
  ],
  unrelated: [
    'when is the dentist appointment',
    'how much did the dishwasher repair cost',
    'what is the interest rate on the credit card',
    "when is Mia's birthday party",
    'how much is the gas bill',
    'what time is the train to London',
    'which day is the swimming lesson',
    'how much did the new fridge cost',
    'when is the boiler service',
    'what did the doctor say about my back',
    'who won the football on Saturday',
    'how do I make pancakes',
  ],
};

/**
 * Ten notes of a family's life (a holiday decided, a nursery start, a
 * broadband deal, a filling, a bike sold, patio quotes, an allergy, a book
 * club, a puncture, a savings account) with 23 questions in other words and
 * 10 about something next door. Written after the rule on notes standing out
 * (leadNamesSubject) and first measured with it: 21 of 23 right, 10 of 10
 * refused. Then tuned on: "which company is doing the patio" is answered by
 * a note naming one (answer-kinds.ts).
 */
export const TRAIN_FAMILY: EverydaySet = {
  notes: [
    {
      id: 'holiday',
      text: 'Family holiday decided: two weeks in Crete in late July instead of Portugal, the kids wanted a beach with a pool. Villa in Chania booked, £2,900 deposit paid.',
    },
    {
      id: 'nursery',
      text: 'Ava starts at Little Acorns nursery on Monday 6 January, three mornings a week. Bring spare clothes, nappies and a named water bottle.',
    },
    {
      id: 'broadband',
      text: 'Virgin Media price going up to £62 a month in April. Called them and got it down to £45 for 18 months, same 500Mb speed.',
    },
    {
      id: 'dentist',
      text: 'Filling done at the dentist today, lower right molar. Numb for three hours, no hot drinks until it wears off. £70.',
    },
    {
      id: 'bike',
      text: 'Sold my old road bike on eBay for £340. Buyer collects Saturday morning, cash only.',
    },
    {
      id: 'garden',
      text: 'Quotes for the new patio: Greenscape £3,400, PaveRight £2,750, Tom the builder £3,100. Picked PaveRight, they can start 10 March.',
    },
    {
      id: 'allergy',
      text: 'Allergist said Max is allergic to peanuts and mildly to eggs. EpiPen prescribed, one at school and one at home. Follow-up in six months.',
    },
    {
      id: 'book',
      text: 'Book club picked "Lessons in Chemistry" for March. Meeting at Priya\'s house on the 28th at 7.30pm, I am bringing dessert.',
    },
    {
      id: 'tyre',
      text: 'Slow puncture in the front left tyre. Kwik Fit patched it, £25. Tyres are fine for another year.',
    },
    {
      id: 'savings',
      text: 'Opened a Marcus savings account at 4.75%. Moved the £8,000 emergency fund from the current account.',
    },
  ],
  questions: [
    {
      question: 'where are we going on holiday this summer',
      answers: ['holiday'],
      ask: 'fact',
    },
    {
      question: 'why did we choose Crete over Portugal',
      answers: ['holiday'],
      ask: 'reason',
    },
    {
      question: 'how much was the villa deposit',
      answers: ['holiday'],
      ask: 'amount',
    },
    {
      question: 'when does Ava start nursery',
      answers: ['nursery'],
      ask: 'date',
    },
    {
      question: 'what does Ava need to take to nursery',
      answers: ['nursery'],
      ask: 'fact',
    },
    {
      question: 'how much is my internet bill now',
      answers: ['broadband'],
      ask: 'amount',
    },
    {
      question: 'what did I agree with Virgin',
      answers: ['broadband'],
      ask: 'decision',
    },
    {
      question: 'what happened at the dentist',
      answers: ['dentist'],
      ask: 'summary',
    },
    {
      question: 'how much did I get for the bike',
      answers: ['bike'],
      ask: 'amount',
    },
    {
      question: 'when is the buyer picking up the bike',
      answers: ['bike'],
      ask: 'date',
    },
    {
      question: 'make a table of the patio quotes',
      answers: ['garden'],
      ask: 'table',
    },
    {
      question: 'which company is doing the patio',
      answers: ['garden'],
      ask: 'fact',
    },
    {
      question: 'when does the patio work start',
      answers: ['garden'],
      ask: 'date',
    },
    {
      question: 'what is Max allergic to',
      answers: ['allergy'],
      ask: 'fact',
    },
    {
      question: 'where are the EpiPens kept',
      answers: ['allergy'],
      ask: 'fact',
    },
    {
      question: 'what are we reading for book club',
      answers: ['book'],
      ask: 'fact',
    },
    {
      question: 'when is the next book club',
      answers: ['book'],
      ask: 'date',
    },
    {
      question: 'what am I bringing to book club',
      answers: ['book'],
      ask: 'fact',
    },
    {
      question: 'what was wrong with the tyre',
      answers: ['tyre'],
      ask: 'fact',
    },
    {
      question: 'what interest rate does the savings account pay',
      answers: ['savings'],
      ask: 'fact',
    },
    {
      question: 'how much is in the emergency fund',
      answers: ['savings'],
      ask: 'amount',
    },
    {
      question: 'list the appointments I have coming up',
      answers: ['nursery', 'book', 'garden', 'allergy'],
      ask: 'list',
    },
    {
      question: 'make a table of everything I have paid for',
      answers: ['holiday', 'dentist', 'tyre', 'garden'],
      ask: 'table',
    },
  ],
  unrelated: [
    'when is my eye test',
    'how much did the new laptop cost',
    'what did the plumber say',
    'when is the MOT due',
    'what is the capital of Italy',
    'how much is the water bill',
    'who is picking the kids up from school on Friday',
    'what did the GP say about my blood pressure',
    'which film are we watching on Saturday',
    'how much is the gym membership',
  ],
};

/**
 * Twelve notes as people type them in a notes app (a shopping list, a
 * wedding's details, a boiler's pressure, a pay rise, a flu jab, parkrun
 * times, a parking permit, ...) with 23 questions in other words and 10
 * about something next door. Written after every change above and measured
 * once, not tuned on: 20 of 23 right, 9 of 10 refused.
 */
export const HELD_OUT_5: EverydaySet = {
  notes: [
    {
      id: 'shopping',
      text: 'Big shop list: milk x2, bread, eggs, chicken thighs, rice, bananas, washing-up liquid, bin bags.',
    },
    {
      id: 'wedding',
      text: "Jen & Rob's wedding 13 Sept, Bristol. Ceremony 2pm at St Mary's, reception at the Grain Barge. Gift: John Lewis list, budget £80.",
    },
    {
      id: 'boiler',
      text: 'Boiler lost pressure again - topped up to 1.5 bar. If it drops below 1 call Corgi Homeplan (policy 44871), 0333 555 0101.',
    },
    {
      id: 'salary',
      text: 'Pay rise confirmed: £46,500 from 1 April, up from £43,000. Bonus scheme stays at 5%.',
    },
    {
      id: 'vaccine',
      text: 'Flu jab and Covid booster booked at Boots, Thursday 16 Oct 11:20. Bring NHS number.',
    },
    {
      id: 'babysit',
      text: 'Gran has the kids Friday night so we can go to the Thai place. Drop them at 5, pick up Sat 10am.',
    },
    {
      id: 'council',
      text: 'Council tax direct debit changed to 12 monthly payments of £158 instead of 10.',
    },
    {
      id: 'laptop',
      text: "Laptop screen cracked. Repair quote from PC World £210, or a new one about £600. Getting it fixed - it's only two years old.",
    },
    {
      id: 'run',
      text: 'Parkrun times: week 1 31:40, week 2 30:55, week 3 29:48, week 4 29:10.',
    },
    {
      id: 'recycling',
      text: 'Glass recycling goes out on alternate Thursdays now, next one 9 Oct.',
    },
    {
      id: 'parking',
      text: 'Parking permit for Elm Road renewed until March next year, £95. Visitor vouchers in the kitchen drawer.',
    },
    {
      id: 'windows',
      text: 'Window cleaner Dan comes every 4 weeks, £18, pay by bank transfer.',
    },
  ],
  questions: [
    {
      question: 'what do I need to buy at the supermarket',
      answers: ['shopping'],
      ask: 'fact',
    },
    {
      question: 'list the groceries I need',
      answers: ['shopping'],
      ask: 'list',
    },
    {
      question: "where is Jen and Rob's reception",
      answers: ['wedding'],
      ask: 'fact',
    },
    {
      question: 'how much should I spend on the wedding present',
      answers: ['wedding'],
      ask: 'amount',
    },
    {
      question: 'what should I do if the boiler pressure drops',
      answers: ['boiler'],
      ask: 'fact',
    },
    {
      question: 'what is the boiler cover phone number',
      answers: ['boiler'],
      ask: 'fact',
    },
    {
      question: 'how much is my new salary',
      answers: ['salary'],
      ask: 'amount',
    },
    {
      question: 'by how much did my pay go up',
      answers: ['salary'],
      ask: 'amount',
    },
    {
      question: 'when is my flu vaccination',
      answers: ['vaccine'],
      ask: 'date',
    },
    {
      question: 'who is looking after the kids on Friday',
      answers: ['babysit'],
      ask: 'fact',
    },
    {
      question: 'when do we collect the kids from Gran',
      answers: ['babysit'],
      ask: 'date',
    },
    {
      question: 'how much is the council tax each month',
      answers: ['council'],
      ask: 'amount',
    },
    {
      question: 'what did I decide about the laptop',
      answers: ['laptop'],
      ask: 'decision',
    },
    {
      question: 'how much will the laptop repair cost',
      answers: ['laptop'],
      ask: 'amount',
    },
    {
      question: 'make a chart of my parkrun times',
      answers: ['run'],
      ask: 'fact',
    },
    {
      question: 'how fast was my last parkrun',
      answers: ['run'],
      ask: 'fact',
    },
    {
      question: 'when does the glass recycling go out next',
      answers: ['recycling'],
      ask: 'date',
    },
    {
      question: 'until when is the parking permit valid',
      answers: ['parking'],
      ask: 'fact',
    },
    {
      question: 'where are the visitor parking vouchers',
      answers: ['parking'],
      ask: 'fact',
    },
    {
      question: 'how often does the window cleaner come',
      answers: ['windows'],
      ask: 'fact',
    },
    {
      question: 'how do I pay the window cleaner',
      answers: ['windows'],
      ask: 'fact',
    },
    {
      question: 'make a table of my regular payments',
      answers: ['council', 'windows'],
      ask: 'table',
    },
    {
      question: 'list my appointments',
      answers: ['vaccine', 'wedding'],
      ask: 'list',
    },
  ],
  unrelated: [
    'when is the dentist',
    'how much is the TV licence',
    'what is the wifi password',
    'when is the bin collection for general waste',
    'who is the best man at the wedding',
    'what is my pension worth',
    'when is the car insurance due',
    'how do I bleed a radiator',
    'what did the vet say about the cat',
    'list the films we want to watch',
  ],
};
