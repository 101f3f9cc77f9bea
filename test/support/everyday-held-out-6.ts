import type { EverydaySet } from './everyday-notes.js';

/**
 * A sixth held-out set of everyday notes and questions, written independently
 * of the chat's gate and answerer and of the other everyday sets (none of
 * which were read while writing it): 24 short notes as people type them, 32
 * questions asked in other words than the notes use, each naming the notes
 * that answer it, and 14 unrelated questions (about half next door to a note,
 * the rest on subjects no note covers) that must be refused. It is to be
 * measured once, as written, and never tuned on.
 */
export const HELD_OUT_6: EverydaySet = {
  notes: [
    {
      id: 'window-cleaner',
      text: 'Window cleaner (Gary) going to every 6 wks instead of 4 from now on. Still £18, cash or bank transfer. Next visit Thu 14 Nov, morning.',
    },
    {
      id: 'broadband-switch',
      text: 'Switched broadband BT → Plusnet. £24.99/m on a 24-month contract (was paying £41 w/ BT). New router arrives Mon 4 Nov, switchover 11 Nov.',
    },
    {
      id: 'physio-knee',
      text: 'Physio for my knee with Priya at Ealing Therapy Centre - Tue 19 Nov 2.15pm. £55 a session, Bupa covering up to 6. Wear shorts.',
    },
    {
      id: 'mum-flu-jab',
      text: "Mum's flu jab at Boots on the high st, Sat 9 Nov 10.40. Free on the NHS. Remind her to bring her NHS number.",
    },
    {
      id: 'ella-school-trip',
      text: "Ella's Yr 5 trip to the Natural History Museum Wed 27 Nov. £14.50 on ParentPay by Fri 15 Nov. Packed lunch, no fizzy drinks, back by 4.30.",
    },
    {
      id: 'jacob-swimming',
      text: "Jacob passed Stage 3! Moving up to Stage 4 at Splash Swim School - Saturdays 9.30 now (not 11). Next term's fee £96, due 1 Dec.",
    },
    {
      id: 'rabbit-teeth',
      text: 'Biscuit (rabbit) - vet says her back teeth are overgrown, needs them burred under sedation. Wylie Vets, Fri 22 Nov, drop off 8.15am. Quote £180.',
    },
    {
      id: 'dog-sitter',
      text: "Hannah from no. 12 will look after Bramble while we're in Paris - £25/day, 2 walks a day. Leave spare key under the blue plant pot + food for 3 days.",
    },
    {
      id: 'mot-fail',
      text: 'Corsa failed its MOT - front brake pads + wiper blade. Kwik Fit quoted £142 inc. retest. Old MOT runs out 30 Nov so book before then.',
    },
    {
      id: 'car-insurance',
      text: 'Car insurance renewal: Admiral quoted £612 (!), went with LV instead at £487, starts 3 Dec. Turned off Admiral auto-renew.',
    },
    {
      id: 'paris-eurostar',
      text: 'Eurostar to Paris: Fri 14 Feb, 07:01 from St Pancras, back Sun 16 Feb. £378 for both of us. Hotel in Le Marais 2 nights, already paid.',
    },
    {
      id: 'dublin-ferry',
      text: "Stena ferry Holyhead-Dublin for Auntie Rose's 80th. Sails 08:55 Sat 7 Dec, car + 3 of us £214 return. Check in 45 mins before.",
    },
    {
      id: 'appraisal',
      text: 'Appraisal with Marcus on Tue 3 Dec. Self-assessment form due 26 Nov. Want to ask about the team lead role + going to 4 days a week.',
    },
    {
      id: 'leeds-expenses',
      text: 'Claim expenses for the Leeds conference on Concur before end of month: train £86.40, hotel £119, dinner £23. Receipts in email folder.',
    },
    {
      id: 'savings-move',
      text: 'Moved £5k from Nationwide easy access (3.1%) to Chase saver (4.1%). Leaving £2k in current account as emergency buffer.',
    },
    {
      id: 'isa-decision',
      text: 'Decided not to open a stocks & shares ISA this year - too much on with the kitchen refit. Putting £200/month into Premium Bonds instead, look again in April.',
    },
    {
      id: 'tom-wedding',
      text: "Cousin Tom's wedding Sat 12 Apr at Babington House, Somerset. RSVP'd yes for 2, veggie option for me. Gift off the John Lewis list, ~£75.",
    },
    {
      id: 'grandad-90th',
      text: "Grandad's 90th: Sun 24 Nov, 1pm, Red Lion function room. I'm making the cake (lemon drizzle), Sue's doing balloons. £40 each towards the room.",
    },
    {
      id: 'kitchen-tap',
      text: 'Kitchen tap dripping again. Plumber Dave Hughes coming Wed 13 Nov, 8-10am. £95 to replace the cartridge, parts incl.',
    },
    {
      id: 'bathroom-fan',
      text: "Electrician (Spark Bros) fitting new Xpelair extractor in bathroom Mon 18 Nov, £165 fitted. Old fan's dead and the mould on the ceiling keeps coming back.",
    },
    {
      id: 'lily-coat',
      text: "Got Lily the North Face parka in the Black Friday sale, £189 (RRP £270). Can return until 15 Jan if it doesn't fit.",
    },
    {
      id: 'neighbour-ladder',
      text: "Lent our ladder to Mr Patel at no. 9 for his gutters - says he'll bring it back Sunday. Mrs Okafor (no. 7) took in our Amazon parcel, she's in after 4.",
    },
    {
      id: 'pottery-class',
      text: "Signed up for beginners' pottery at Morley College - Tues 7-9pm, 10 weeks from 7 Jan. £210, clay included. Bring an apron.",
    },
    {
      id: 'disney-cancel',
      text: "Cancelled Disney+ (£7.99/m) - nobody's watched it since the kids got bored of Bluey. Runs till 20 Nov. Keeping Netflix and Spotify Family (£19.99).",
    },
  ],
  questions: [
    // amounts
    { question: 'How much is our new internet deal each month?', answers: ['broadband-switch'], ask: 'amount' },
    { question: 'What does each appointment for my bad leg cost?', answers: ['physio-knee'], ask: 'amount' },
    {
      question: 'How much do I need to pay for the class outing to the museum?',
      answers: ['ella-school-trip'],
      ask: 'amount',
    },
    { question: "How much will the bunny's dental procedure cost?", answers: ['rabbit-teeth'], ask: 'amount' },
    {
      question: 'What is the garage charging to sort the car out so it passes its test?',
      answers: ['mot-fail'],
      ask: 'amount',
    },
    { question: 'What are we paying the neighbour per day to mind the dog?', answers: ['dog-sitter'], ask: 'amount' },
    { question: 'How much did the train tickets to France come to?', answers: ['paris-eurostar'], ask: 'amount' },
    {
      question: "How much is everyone chipping in for the venue at my grandfather's birthday do?",
      answers: ['grandad-90th'],
      ask: 'amount',
    },
    // dates and times
    {
      question: 'When is the plumber coming to sort out the drip in the kitchen?',
      answers: ['kitchen-tap'],
      ask: 'date',
    },
    { question: 'What time does our train to France leave?', answers: ['paris-eurostar'], ask: 'date' },
    { question: "When is my mother's vaccination at the chemist?", answers: ['mum-flu-jab'], ask: 'date' },
    { question: 'When does the boat over to Ireland depart?', answers: ['dublin-ferry'], ask: 'date' },
    {
      question: "What's the deadline for the form I have to fill in before my performance review?",
      answers: ['appraisal'],
      ask: 'date',
    },
    { question: "What time are my son's swimming lessons now?", answers: ['jacob-swimming'], ask: 'date' },
    { question: 'When does the ceramics course start?', answers: ['pottery-class'], ask: 'date' },
    // facts
    { question: 'Which company did we move our car cover to?', answers: ['car-insurance'], ask: 'fact' },
    { question: 'Which neighbour has got our delivery?', answers: ['neighbour-ladder'], ask: 'fact' },
    { question: 'Where is my cousin getting married?', answers: ['tom-wedding'], ask: 'fact' },
    { question: 'Where did we leave the spare key for the pet-sitter?', answers: ['dog-sitter'], ask: 'fact' },
    { question: 'Which bank did I move my savings into?', answers: ['savings-move'], ask: 'fact' },
    {
      question: "Who's sorting the decorations for the family party in November?",
      answers: ['grandad-90th'],
      ask: 'fact',
    },
    // summaries
    { question: "What's the story with the car's annual test?", answers: ['mot-fail'], ask: 'summary' },
    { question: "Summarise the plan for the rabbit's vet visit.", answers: ['rabbit-teeth'], ask: 'summary' },
    {
      question: "Give me a quick rundown of what's happening with our TV streaming subscriptions.",
      answers: ['disney-cancel'],
      ask: 'summary',
    },
    // decisions
    {
      question: 'What did we decide about investing in the stock market this year?',
      answers: ['isa-decision'],
      ask: 'decision',
    },
    {
      question: 'What did we agree with the window man about how often he comes?',
      answers: ['window-cleaner'],
      ask: 'decision',
    },
    // reasons
    { question: 'Why is an electrician coming to do the bathroom?', answers: ['bathroom-fan'], ask: 'reason' },
    { question: "Why did we stop paying for Disney's streaming service?", answers: ['disney-cancel'], ask: 'reason' },
    // lists
    {
      question: 'What repair jobs in the house have I got booked?',
      answers: ['kitchen-tap', 'bathroom-fan'],
      ask: 'list',
    },
    {
      question: 'What family celebrations have I got coming up?',
      answers: ['grandad-90th', 'tom-wedding', 'dublin-ferry'],
      ask: 'list',
    },
    // tables
    {
      question: 'Put my internet and car cover switches in a table with the old and new prices.',
      answers: ['broadband-switch', 'car-insurance'],
      ask: 'table',
    },
    {
      question: 'Can you put the work trip costs I need to claim back in a table?',
      answers: ['leeds-expenses'],
      ask: 'table',
    },
  ],
  unrelated: [
    // next door to a note
    'When is Bramble due her booster jabs?',
    'How much was the taxi to St Pancras?',
    'How much is the kitchen refit costing us?',
    "What's Ella's teacher called?",
    "When is Mum's hearing test?",
    'How much is the road tax on the Corsa?',
    'How much did the hotel in Dublin cost?',
    // subjects no note covers
    'Which electricity supplier are we with?',
    'When does my passport need renewing?',
    "What's the code for the garage door?",
    'How much did we spend on Christmas presents last year?',
    'Which day do the bins go out?',
    "What's my National Insurance number?",
    'What shoe size does Jacob take now?',
  ],
};
