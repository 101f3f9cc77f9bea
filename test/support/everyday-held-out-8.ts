import type { EverydaySet } from './everyday-notes.js';

/**
 * An eighth held-out set of everyday notes, in Australian English with A$
 * prices, written independently of the chat's gate and answerer and of the
 * other everyday sets (none of which were read while writing it). Its 20
 * short notes cover household, bills, health, kids, pets, the car, travel,
 * work, money, family events, purchases, neighbours, hobbies, the garden, a
 * class, a repair, bookings and decisions; its 30 questions ask about them in
 * other words than the notes use, and its 12 unrelated questions (a third of
 * them next door to a note) must be refused. It is measured once, as
 * written, and not tuned on.
 */
export const HELD_OUT_8: EverydaySet = {
  notes: [
    {
      id: 'electricity-bill',
      text: 'Origin elec bill $312.40 for the Jan-Mar qtr, due 14 Apr. Set up direct debit from the ING acct so it comes out automatically.',
    },
    {
      id: 'dentist-mia',
      text: 'Mia dentist w Dr Patel at Smile Bright Carlton, Thu 22 May 3:45pm. Bring Medicare card + the CDBS letter.',
    },
    {
      id: 'vet-biscuit',
      text: "Biscuit's C5 vaccination at Northcote Vet done 3 Mar, $145. Next one due Mar next yr. Vet said cut back on the Dentastix, he's 2kg over.",
    },
    {
      id: 'car-service',
      text: 'Corolla 60,000km logbook service at Toyota Preston Mon 9 Jun, drop off 7:30am. Quoted $389.',
    },
    {
      id: 'bali-trip',
      text: 'Bali flights booked w Jetstar MEL-DPS, dep Sat 27 Sep 6:10am, back 5 Oct. $1,248 for the 4 of us. Villa in Sanur via Airbnb $180/night.',
    },
    {
      id: 'work-review',
      text: 'Perf review w Sandra moved to Wed 18 Jun 2pm, meeting room 4B. Need to send her my self-assessment by Fri 13th.',
    },
    {
      id: 'super-consolidation',
      text: 'Rolled old REST super into AustralianSuper - approx $23,600 transferred, took about 2 wks. Insurance on the old fund cancelled.',
    },
    {
      id: 'nan-birthday',
      text: "Nan's 90th - lunch at The Grand Hotel Richmond Sun 6 Jul 12pm. Booked for 14 ppl, $65pp set menu. Aunty Jo doing the cake.",
    },
    {
      id: 'new-fridge',
      text: 'Bought Westinghouse 425L fridge at The Good Guys $1,099 (price matched JB Hi-Fi). Delivery Tue 3 Jun btwn 7-11am, they take the old one away for $30.',
    },
    {
      id: 'neighbour-fence',
      text: 'Talked to Greg next door (no. 14) re the back fence. Splitting it 50/50 - Fence Bros quote $2,800 total so $1,400 each. Colorbond in Monument.',
    },
    {
      id: 'pottery-class',
      text: 'Pottery wheel course at Clay Corner Brunswick, 6 wks of Tues 7-9pm starting 8 Apr. Paid $420 incl clay + firing. Wear old clothes!',
    },
    {
      id: 'garden-veg',
      text: "Planted garlic + broad beans in the back bed 12 Apr. Tomatoes didn't do well this yr - too shady near the lemon tree, move them to the side bed next spring.",
    },
    {
      id: 'hot-water-repair',
      text: 'Hot water system leaking again. Dave from Aqua Plumbing (0412 555 019) replaced the TPR valve 20 May, $265. Says the unit is 14 yrs old and will need replacing in a yr or two.',
    },
    {
      id: 'school-camp',
      text: 'Josh Yr 5 camp to Phillip Island 11-13 Jun. $310 due via Compass by 30 May. Needs sleeping bag, torch and gumboots.',
    },
    {
      id: 'phone-plan',
      text: 'Decided to switch mobile from Telstra to Aussie Broadband - $30/mth for 30GB vs $58 w Telstra. Keeping my number, port it over once the contract ends 1 Aug.',
    },
    {
      id: 'couch-decision',
      text: "Couch: looked at the Mason 3 seater at Freedom ($1,899) vs the Koala sofa bed ($1,650). Going w the Koala - cheaper and the sofa bed's handy when Mum stays over.",
    },
    {
      id: 'gym-membership',
      text: 'Cancelled Anytime Fitness ($18.95/wk) - hardly been since Feb. Doing parkrun Sat mornings at Darebin instead. Last debit 2 May.',
    },
    {
      id: 'bank-savings',
      text: 'Moved the emergency fund to a Ubank savings acct, 5.1% p.a. Balance $8,750, goal is $12k by Christmas.',
    },
    {
      id: 'babysitter',
      text: "Babysitter Chloe (Sue's daughter) - $25/hr, can do Fri nights. Kids in bed by 8. Her mobile 0433 210 876.",
    },
    {
      id: 'tax-return',
      text: 'Tax return appt at H&R Block Northcote Fri 25 Jul 10am. Bring income statement, WFH receipts (~$1,100) and the donation receipts.',
    },
  ],
  questions: [
    { question: 'How much is the power bill this quarter?', answers: ['electricity-bill'], ask: 'amount' },
    { question: 'What did the new fridge set us back?', answers: ['new-fridge'], ask: 'amount' },
    { question: 'How much do I owe for my half of the fence?', answers: ['neighbour-fence'], ask: 'amount' },
    { question: 'What does the babysitter charge per hour?', answers: ['babysitter'], ask: 'amount' },
    { question: 'How much did I pay for the ceramics course?', answers: ['pottery-class'], ask: 'amount' },
    {
      question: 'How much money moved over when I combined my super?',
      answers: ['super-consolidation'],
      ask: 'amount',
    },
    { question: "What's the quote for getting the car serviced?", answers: ['car-service'], ask: 'amount' },
    { question: "When's Mia seeing the dentist?", answers: ['dentist-mia'], ask: 'date' },
    { question: 'What day do we fly out to Bali?', answers: ['bali-trip'], ask: 'date' },
    { question: "When's my performance review now?", answers: ['work-review'], ask: 'date' },
    { question: 'When is the fridge getting delivered?', answers: ['new-fridge'], ask: 'date' },
    { question: "When does Josh's camp money have to be paid by?", answers: ['school-camp'], ask: 'date' },
    { question: "When's my appointment with the tax agent?", answers: ['tax-return'], ask: 'date' },
    { question: "Who's making the cake for Nan's party?", answers: ['nan-birthday'], ask: 'fact' },
    { question: "What's the plumber's phone number?", answers: ['hot-water-repair'], ask: 'fact' },
    { question: 'Where are we staying in Bali?', answers: ['bali-trip'], ask: 'fact' },
    { question: "What did the vet say about the dog's weight?", answers: ['vet-biscuit'], ask: 'fact' },
    { question: 'What interest rate am I getting on my emergency savings?', answers: ['bank-savings'], ask: 'fact' },
    { question: 'What does Josh need to pack for camp?', answers: ['school-camp'], ask: 'fact' },
    { question: 'Give me a quick rundown of the Bali holiday.', answers: ['bali-trip'], ask: 'summary' },
    { question: "Summarise what's going on with the hot water system.", answers: ['hot-water-repair'], ask: 'summary' },
    { question: "Can you sum up the plans for Nan's 90th?", answers: ['nan-birthday'], ask: 'summary' },
    { question: 'Which couch did we end up choosing?', answers: ['couch-decision'], ask: 'decision' },
    { question: 'What did I decide to do about my phone plan?', answers: ['phone-plan'], ask: 'decision' },
    {
      question: 'What did we work out with the neighbour about the fence?',
      answers: ['neighbour-fence'],
      ask: 'decision',
    },
    { question: "Why didn't the tomatoes grow well this year?", answers: ['garden-veg'], ask: 'reason' },
    { question: 'Why did I quit the gym?', answers: ['gym-membership'], ask: 'reason' },
    {
      question: 'What have I got coming up in June?',
      answers: ['new-fridge', 'car-service', 'school-camp', 'work-review'],
      ask: 'list',
    },
    { question: "List everything that's on in July.", answers: ['nan-birthday', 'tax-return'], ask: 'list' },
    {
      question: 'Put the two sofas I looked at in a table with the shop and price.',
      answers: ['couch-decision'],
      ask: 'table',
    },
  ],
  unrelated: [
    "When is Josh's dentist appointment?",
    'How much was the gas bill last quarter?',
    'When is the cat due for its vaccination?',
    'What did the mechanic quote for new tyres?',
    "What's the wifi password?",
    'Which day is bin collection?',
    'How much did I spend on groceries last week?',
    "What's my blood type?",
    'Where did I put the spare house key?',
    "What's the recipe for Mum's lasagne?",
    'When does my passport expire?',
    "What's the name of Josh's teacher?",
  ],
};
