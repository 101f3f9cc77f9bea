import type { EverydaySet } from './everyday-notes.js';

/** A third held-out set of everyday notes, questions and unrelated (must-refuse) questions, written independently of the gate and of the code it measures, without reference to the existing sets; questions deliberately paraphrase the notes rather than reuse their wording, and the set is meant to be measured once and not tuned against. */
export const HELD_OUT_3: EverydaySet = {
  notes: [
    {
      id: 'dentist-checkup',
      text: 'Dentist – Dr Okafor, Riverside Dental. Tue 14 May 9:40am check-up + scale & polish. Take the updated medical history form.',
    },
    {
      id: 'vet-booster',
      text: 'Biscuit (cat) annual booster jab at Fairfield Vets, Thurs 23 May 5:15pm. £62 incl. flea & worming, pay at reception on the day. Cat carrier is in the loft.',
    },
    { id: 'hairdresser-appointment', text: 'Jodie @ Snip & Co – Sat 18 May, 11am. Cut & colour, roughly £75.' },
    {
      id: 'boiler-service',
      text: "British Gas boiler service Wed 29 May, engineer some time 8am–12pm. Ref BG-448120. Nothing to pay, it's included in the HomeCare cover.",
    },
    {
      id: 'parents-evening',
      text: "Parents' evening for Maya with Mrs Patel (Year 4) – Mon 20 May, 4:30pm, 10 min slot. Ask about moving up a reading group & the times-tables app.",
    },
    {
      id: 'mot-booking',
      text: 'MOT booked at Kwik Fit Halesowen, Fri 31 May 8:30am. Paid £54.85 online, ref KF-20931. Drop the Golf off and get the bus to work.',
    },
    {
      id: 'blood-test',
      text: 'GP blood test (cholesterol) Fri 24 May 8:50am at Woodside Surgery – no food after midnight. Ring for results after 2pm, should take about a week.',
    },
    {
      id: 'plumber-leak',
      text: 'Leak under the kitchen sink finally sorted 2 May – Dave Rowe (plumber, 07700 900312) replaced a split compression fitting on the cold feed. £95, paid cash, no receipt. Cupboard base needs drying out or replacing.',
    },
    {
      id: 'broadband-switch',
      text: "Switching broadband Virgin → Zen. Zen is £32 a month, 18-month contract, goes live 10 June. Virgin ends 9 June – check they don't take another payment.",
    },
    {
      id: 'streaming-subs',
      text: 'Subs: Spotify Family £19.99/mo, Netflix Standard £10.99/mo. Cancelled Disney+ in April.',
    },
    {
      id: 'gym-price',
      text: 'PureGym email – membership going up from £24.99 to £27.99 monthly from 1 June. Annoying but still cheaper than the leisure centre.',
    },
    {
      id: 'council-tax',
      text: 'Council tax 24/25 is Band C, £1,896 for the year. Direct debit £189.60 on the 1st of the month, April to January (10 instalments).',
    },
    {
      id: 'car-insurance',
      text: 'Renewed car insurance with Admiral: £486 per year, policy no. AD-77301-K. Direct Line wanted £512 and Admiral includes a courtesy car, so stayed put.',
    },
    { id: 'pet-insurance', text: 'Petplan for Biscuit – £14.20 a month, £99 excess per claim. Renews every March.' },
    {
      id: 'roof-quotes',
      text: 'Garage flat roof quotes: Hallam Roofing £2,350 (EPDM rubber, 20-yr guarantee); J&S Builders £1,900 (felt, 10-yr). Decided on Hallam for the longer guarantee – they can start w/c 15 July.',
    },
    {
      id: 'fence-quote',
      text: "Garden Guys quoted £420 to replace 3 fence panels and 1 concrete post on the left side. Gary at no. 14 says he'll go halves, so £210 each.",
    },
    {
      id: 'school-trip',
      text: "Maya's class trip to the Black Country Living Museum – Wed 12 June. £18 paid on ParentPay. Packed lunch, no fizzy drinks, wear trainers.",
    },
    {
      id: 'work-review',
      text: 'Mid-year review with Priya moved to Thu 6 June, 2pm, room 3B. Prep Q2 numbers + update on supplier onboarding.',
    },
    {
      id: 'cornwall-cottage',
      text: 'Cornwall cottage booked! Trevone, Sat 17 – Sat 24 Aug, sleeps 6. £1,140 total, paid £300 deposit, rest due by 17 July. Booking ref CC-5582.',
    },
    {
      id: 'neighbour-parcel',
      text: "Mrs Hughes at no. 9 took in our parcel (the new kettle). She's back after 6pm most evenings.",
    },
    {
      id: 'mum-70th',
      text: "Mum's 70th – lunch at The Plough, Sun 9 June 1pm, table for 12 booked under Bennett. Cake ordered from Crumbs Bakery, £45 paid, collect Sat morning.",
    },
    {
      id: 'washing-machine',
      text: "Old washing machine died mid-cycle (E21 error, drum won't turn) – not worth repairing at 11 years old. Bought a Bosch Series 4 from AO for £399, delivery Sat 25 May, plus £20 to take the old one away.",
    },
    {
      id: 'pottery-class',
      text: "Signed up for beginners' pottery at the Arts Centre – Tuesdays 7–9pm, 8 weeks starting 4 June. £160 for the course, paid. Bring an apron.",
    },
    {
      id: 'savings-transfer',
      text: 'Moved £2,000 into the Chase saver (4.1%). Set up a standing order of £250 a month on the 28th to keep topping it up.',
    },
  ],
  questions: [
    // amounts (8)
    { question: 'What did the plumber charge to fix the sink?', answers: ['plumber-leak'], ask: 'amount' },
    {
      question: "What's the new internet provider costing me each month?",
      answers: ['broadband-switch'],
      ask: 'amount',
    },
    { question: 'How much do I pay to insure the cat?', answers: ['pet-insurance'], ask: 'amount' },
    {
      question: 'How much is still left to pay on the holiday let in Cornwall?',
      answers: ['cornwall-cottage'],
      ask: 'amount',
    },
    { question: 'What did the MOT set me back?', answers: ['mot-booking'], ask: 'amount' },
    { question: "What's our council tax bill for the whole year?", answers: ['council-tax'], ask: 'amount' },
    { question: 'How much was the new washer?', answers: ['washing-machine'], ask: 'amount' },
    { question: 'What will my gym membership cost now it has gone up?', answers: ['gym-price'], ask: 'amount' },
    // dates / times (7)
    { question: "When's the cat's jab?", answers: ['vet-booster'], ask: 'date' },
    { question: 'What time am I at the dentist?', answers: ['dentist-checkup'], ask: 'date' },
    { question: 'When is the gas engineer coming to look at the boiler?', answers: ['boiler-service'], ask: 'date' },
    {
      question: 'By when do I have to settle the rest of the cottage payment?',
      answers: ['cornwall-cottage'],
      ask: 'date',
    },
    { question: "What time is my slot to see Maya's teacher?", answers: ['parents-evening'], ask: 'date' },
    { question: 'When has my catch-up with Priya been moved to?', answers: ['work-review'], ask: 'date' },
    { question: 'When do I need to be at the doctors for my bloods?', answers: ['blood-test'], ask: 'date' },
    // facts (5)
    { question: 'Which neighbour took in the delivery for us?', answers: ['neighbour-parcel'], ask: 'fact' },
    { question: "What's the reference number for the boiler visit?", answers: ['boiler-service'], ask: 'fact' },
    { question: "Where are we going for Mum's birthday meal?", answers: ['mum-70th'], ask: 'fact' },
    { question: "What's the policy number on the car cover?", answers: ['car-insurance'], ask: 'fact' },
    { question: 'Where is Maya going on her school outing?', answers: ['school-trip'], ask: 'fact' },
    // summaries (3)
    { question: 'What happened with the leak in the kitchen?', answers: ['plumber-leak'], ask: 'summary' },
    { question: 'Summarise the Cornwall holiday booking for me.', answers: ['cornwall-cottage'], ask: 'summary' },
    {
      question: "What's the story with changing our internet supplier?",
      answers: ['broadband-switch'],
      ask: 'summary',
    },
    // decisions (2)
    { question: 'Which firm did we settle on for the garage roof?', answers: ['roof-quotes'], ask: 'decision' },
    {
      question: 'What did we agree with next door about paying for the fence?',
      answers: ['fence-quote'],
      ask: 'decision',
    },
    // reasons (2)
    {
      question: 'Why did we stick with Admiral for the car instead of switching?',
      answers: ['car-insurance'],
      ask: 'reason',
    },
    { question: 'Why did we have to buy a new washing machine?', answers: ['washing-machine'], ask: 'reason' },
    // collections across notes (7)
    {
      question: 'What appointments have I got coming up?',
      answers: [
        'dentist-checkup',
        'vet-booster',
        'hairdresser-appointment',
        'boiler-service',
        'parents-evening',
        'mot-booking',
        'blood-test',
        'work-review',
      ],
      ask: 'list',
    },
    {
      question: 'Put my regular bills and subscriptions in a table with what each one costs.',
      answers: ['broadband-switch', 'streaming-subs', 'gym-price', 'council-tax', 'car-insurance', 'pet-insurance'],
      ask: 'table',
    },
    {
      question: "Can you lay out the quotes I've had for jobs on the house and garden in a table?",
      answers: ['roof-quotes', 'fence-quote'],
      ask: 'table',
    },
    {
      question: "List the one-off things I've already paid for lately.",
      answers: [
        'plumber-leak',
        'mot-booking',
        'school-trip',
        'cornwall-cottage',
        'mum-70th',
        'washing-machine',
        'pottery-class',
      ],
      ask: 'list',
    },
    {
      question: 'What have I got booked in for May?',
      answers: [
        'dentist-checkup',
        'hairdresser-appointment',
        'parents-evening',
        'vet-booster',
        'blood-test',
        'washing-machine',
        'boiler-service',
        'mot-booking',
      ],
      ask: 'list',
    },
    {
      question: "Anything I need to remember for Maya's school?",
      answers: ['parents-evening', 'school-trip'],
      ask: 'list',
    },
    {
      question: 'Which events and appointments do the family and I have in June?',
      answers: ['pottery-class', 'work-review', 'mum-70th', 'school-trip'],
      ask: 'list',
    },
  ],
  unrelated: [
    // general knowledge / never noted
    "What's my sister's phone number?",
    'What time is my flight to Malaga?',
    'What is the capital of Australia?',
    'How many teaspoons are in a tablespoon?',
    "What's my National Insurance number?",
    'When do the clocks go forward this year?',
    "What's the wifi password at my in-laws' house?",
    'Who won the FA Cup last season?',
    // look like the notes' topics but are not in them
    'How much did the electrician charge to sort out the lights?',
    "When's my eye test at the opticians?",
    'Make a table of my marathon times.',
    "List the books I've read this year.",
    'How much is the water bill each month?',
    "When's my meeting with Tom from finance?",
    "What time is Leo's swimming lesson?",
    'What did the mortgage broker recommend?',
  ],
};
