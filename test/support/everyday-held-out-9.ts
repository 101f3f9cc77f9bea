import type { EverydaySet } from './everyday-notes.js';

/**
 * A ninth held-out set of everyday notes, in Canadian English (C$ amounts,
 * Canadian places, brands and accounts), written independently of the chat's
 * gate and answerer and of the other everyday sets: 22 short notes as people
 * jot them, 32 questions asked in other words than the notes use, and 14
 * unrelated questions (about half next door to a note: same topic or person,
 * a fact the notes do not hold) that must be refused. Measured once, as
 * written, and not tuned on.
 */
export const HELD_OUT_9: EverydaySet = {
  notes: [
    {
      id: 'rogers-bill',
      text: 'Rogers bill going up to C$92/mo from March — switched to the 50GB plan. Autopay on the Visa, comes out the 18th.',
    },
    {
      id: 'hydro-bill',
      text: 'Hydro One Jan bill C$214.60, paid Feb 3. Dec was only C$148 — prob the space heater in the basement.',
    },
    {
      id: 'dentist-liam',
      text: 'Liam – Dr. Okafor Tue Apr 15 @ 3:40pm, Bloor St office. Cleaning + have her check that back molar.',
    },
    {
      id: 'emma-hockey',
      text: "Emma's hockey: practice Sat 7am at Mattamy Centre. Registration C$540 paid to Leaside. Needs new skates before Sept.",
    },
    {
      id: 'biscuit-vet',
      text: 'Biscuit had rabies + DHPP done at Riverdale Animal Hospital, C$187. Booster due Oct 2026. Good boy, only whined a bit.',
    },
    {
      id: 'car-tires',
      text: 'Winters put on at Canadian Tire Nov 9, C$120 for the changeover. Summer set stored there — tag #4471.',
    },
    {
      id: 'halifax-flight',
      text: "WestJet YYZ→YHZ booked for Mom's 70th: Fri Jul 11 dep 8:15am, back Mon Jul 14. C$486 total for the two of us.",
    },
    {
      id: 'work-review',
      text: 'Perf review w/ Priya moved to Thu May 8, 10am. Bring Q1 dashboard numbers, ask about the team lead opening.',
    },
    {
      id: 'tfsa-rrsp',
      text: 'C$7,000 into TFSA (Wealthsimple) Jan 2 — 2025 room done. RRSP still to do before Mar 3 deadline, aiming for C$4,500.',
    },
    {
      id: 'nana-90th',
      text: "Nana's 90th — at Aunt Carol's in Oakville, Sun Jun 22, 2pm. We're doing the cake, order from Dufflet by the 15th.",
    },
    {
      id: 'sectional',
      text: 'Got the sectional at Structube, C$1,299 + tax. Delivery Mar 28 between 8 and noon.',
    },
    {
      id: 'fence-gord',
      text: 'Talked w/ Gord next door about the fence. Splitting it 50/50 — his guy quoted C$2,800 all in. Starts after May long wknd.',
    },
    {
      id: 'pottery',
      text: 'Wheel night at the community centre (Wed 7–9). Finally centred a bowl without it caving in!! Glaze day Apr 23.',
    },
    {
      id: 'furnace',
      text: 'Furnace rattling — Reliance tech came Feb 12, replaced the blower motor bearing, C$365. Change the filter every 3 months he said.',
    },
    {
      id: 'french-course',
      text: 'Registered: French Level 2 at George Brown, evenings Tue/Thu, 10 wks from Sept 16. C$389. Need textbook Alter Ego+ 2.',
    },
    {
      id: 'crave-cancelled',
      text: 'Cancelled Crave — C$22/mo and we watched one show all winter. Keeping Netflix, the kids are on it every day.',
    },
    {
      id: 'camp-decision',
      text: "Liam's doing YMCA day camp this summer, not the Algonquin overnight one. He's only 8 and overnight was C$1,900 vs C$310/wk for day camp.",
    },
    {
      id: 'loblaws-list',
      text: 'Loblaws: maple syrup, 4L 2% milk, PC butter chicken sauce, bagels, frozen blueberries, paper towel. Use the Optimum pts!',
    },
    {
      id: 'butter-tarts',
      text: "Grandma's butter tarts: ½ c brown sugar, ¼ c melted butter, 1 egg, ½ c corn syrup, 1 tsp vanilla, raisins. 375°F, 15–18 min.",
    },
    {
      id: 'dishwasher-warranty',
      text: 'Bosch dishwasher from Best Buy, Jun 2024, C$949. Bosch covers 1 yr, plus Geek Squad plan 3 yrs (C$129). Receipt in kitchen drawer folder.',
    },
    {
      id: 'ttc-pass',
      text: 'TTC monthly pass is C$156 now. On my Presto, auto-renews on the 1st.',
    },
    {
      id: 'sitter-maya',
      text: 'Sitter: Maya (Gord’s niece), C$18/hr, free most Fri nights. Text 416-555-0182.',
    },
  ],
  questions: [
    { question: 'How much is my cell plan costing me each month now?', answers: ['rogers-bill'], ask: 'amount' },
    { question: 'What did we pay for electricity in January?', answers: ['hydro-bill'], ask: 'amount' },
    { question: 'Why do we think the power bill jumped over the winter?', answers: ['hydro-bill'], ask: 'reason' },
    { question: "When's Liam getting his teeth looked at?", answers: ['dentist-liam'], ask: 'date' },
    { question: 'When is Emma on the ice each week?', answers: ['emma-hockey'], ask: 'fact' },
    { question: 'When does the dog need his next round of jabs?', answers: ['biscuit-vet'], ask: 'date' },
    {
      question: 'Where are the car’s off-season wheels kept, and what is the claim number?',
      answers: ['car-tires'],
      ask: 'fact',
    },
    { question: 'What time does our plane to Nova Scotia take off?', answers: ['halifax-flight'], ask: 'date' },
    {
      question: "How much did the airfare for my mother's birthday trip come to?",
      answers: ['halifax-flight'],
      ask: 'amount',
    },
    {
      question: 'What should I bring to my evaluation meeting with my manager?',
      answers: ['work-review'],
      ask: 'fact',
    },
    {
      question: 'How much am I planning to put into my retirement account before the cutoff?',
      answers: ['tfsa-rrsp'],
      ask: 'amount',
    },
    { question: "Where and when is my grandmother's birthday party?", answers: ['nana-90th'], ask: 'fact' },
    {
      question: 'By what date do we have to get the bakery order in for the family party?',
      answers: ['nana-90th'],
      ask: 'date',
    },
    { question: 'When is the new couch supposed to arrive?', answers: ['sectional'], ask: 'date' },
    {
      question: 'What did we agree with the neighbour about paying for the new boundary between our yards?',
      answers: ['fence-gord'],
      ask: 'decision',
    },
    { question: 'How is my ceramics class going?', answers: ['pottery'], ask: 'summary' },
    { question: 'What was wrong with the heating and what did the repair cost?', answers: ['furnace'], ask: 'summary' },
    { question: 'How often did the repairman say to swap the air filter?', answers: ['furnace'], ask: 'fact' },
    { question: 'Which book do I need for my language class?', answers: ['french-course'], ask: 'fact' },
    { question: 'When does the language course begin?', answers: ['french-course'], ask: 'date' },
    { question: 'Why did we get rid of that streaming service?', answers: ['crave-cancelled'], ask: 'reason' },
    { question: "What did we settle on for Liam's summer plans?", answers: ['camp-decision'], ask: 'decision' },
    { question: "Why didn't we send Liam to the sleepaway camp?", answers: ['camp-decision'], ask: 'reason' },
    { question: 'What do I need to pick up at the grocery store?', answers: ['loblaws-list'], ask: 'list' },
    {
      question: "What oven temperature and how long for Grandma's tart recipe?",
      answers: ['butter-tarts'],
      ask: 'fact',
    },
    {
      question: 'How long is the dishwasher covered if it breaks down?',
      answers: ['dishwasher-warranty'],
      ask: 'fact',
    },
    { question: 'What does my monthly transit fare cost?', answers: ['ttc-pass'], ask: 'amount' },
    { question: 'What is our babysitter’s hourly rate?', answers: ['sitter-maya'], ask: 'amount' },
    { question: 'What appointments do I have coming up?', answers: ['dentist-liam', 'work-review'], ask: 'list' },
    {
      question: 'What family trips and get-togethers are coming up this summer?',
      answers: ['halifax-flight', 'nana-90th'],
      ask: 'list',
    },
    {
      question: 'Make a table of our regular monthly bills.',
      answers: ['rogers-bill', 'hydro-bill', 'ttc-pass'],
      ask: 'table',
    },
    {
      question: "Put the kids' sports and camp costs in a table.",
      answers: ['emma-hockey', 'camp-decision'],
      ask: 'table',
    },
  ],
  unrelated: [
    "When is the cat's next checkup?",
    "How much are Liam's hockey fees?",
    'How much did we pay for parking at the airport for the Halifax trip?',
    "What time is Emma's dentist appointment?",
    "What's Gord's phone number?",
    'How much did the summer tires cost?',
    'How much is the textbook for the French course?',
    'What time does the library close on Sundays?',
    'How do I renew my passport?',
    'Which day is garbage pickup on our street?',
    'Who won the Leafs game last night?',
    "What's the guest Wi-Fi password?",
    "What's my Aeroplan number?",
    'When does my driver’s licence expire?',
  ],
};
