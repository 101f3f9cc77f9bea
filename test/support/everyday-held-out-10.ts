import type { EverydaySet } from './everyday-notes.js';

/**
 * A tenth held-out set of everyday notes, in New Zealand English with NZ$
 * prices, written independently of the chat's gate and answerer and of the
 * other everyday sets: 24 short notes as people jot them, 32 questions asked
 * in other words than the notes use (synonyms, the general word for a
 * specific one, a brand's category for its name), and 14 unrelated questions
 * that must be refused, half of them next door to a note (same topic or same
 * person, but a fact the notes do not hold). It is measured once, as
 * written, and not tuned on.
 */
export const HELD_OUT_10: EverydaySet = {
  notes: [
    {
      id: 'power-bill',
      text: 'Mercury power bill $212.40 for June, due 18 July. Switched to the low user plan in March.',
    },
    {
      id: 'fibre-plan',
      text: 'One NZ fibre 300 plan $89/mo, contract ends Feb 2026. Router is in the hallway cupboard.',
    },
    {
      id: 'gp-appt',
      text: 'GP appt w/ Dr Patel Thurs 14 Aug 9:40am at Ponsonby Medical. Bring list of repeat scripts. $19 co-pay.',
    },
    {
      id: 'dentist',
      text: 'Dentist Tue 2 Sept 3:15pm, Dr Wong at Smile Dental Newmarket. Two fillings quoted $340 total.',
    },
    {
      id: 'physio-knee',
      text: 'Physio for sore knee - 6 sessions, ACC claim approved. $15 surcharge per visit, next one Mon 8am.',
    },
    {
      id: 'noah-swim',
      text: "Noah's swimming lessons Sat 9am at Parnell Baths, term fee $165. Needs new goggles.",
    },
    {
      id: 'ruby-camp',
      text: 'Ruby Yr 6 camp at Tui Ridge 22-24 Oct, $290, pay by 30 Sept via school app. She needs a sleeping bag + torch.',
    },
    {
      id: 'biscuit-vet',
      text: 'Took Biscuit to the vet Fri - ear infection. Drops twice a day for 10 days, $134 incl consult. Recheck in 2 wks.',
    },
    {
      id: 'corolla',
      text: 'Corolla WOF due 12 Nov. Rego paid till March ($118 for 6 mo). Service at Pit Stop booked 5 Nov, oil + filter approx $189.',
    },
    {
      id: 'qt-flights',
      text: 'Air NZ AKL-ZQN 17 Dec 7:05am, back 23 Dec. 4 of us, $1,236 total, booking ref KX7P2Q. Seat select not incl.',
    },
    {
      id: 'work-review',
      text: 'Quarterly review w/ Hemi moved to Thurs 28 Aug 2pm. Need sales figures + slides for the Hamilton branch ready.',
    },
    {
      id: 'kiwisaver',
      text: 'Bumped KiwiSaver from 3% to 6% from Sept. Emergency fund at $4,800, goal $10k by Xmas 2026.',
    },
    {
      id: 'nana-80th',
      text: "Nana Jo's 80th bday lunch Sun 19 Oct 12:30 at the Riverhead pub, table booked for 14. We're bringing the pav.",
    },
    {
      id: 'washing-machine',
      text: 'Bought Fisher & Paykel 8kg front loader from Harvey Norman, $1,149, delivery Wed. Old one taken away for $30.',
    },
    {
      id: 'kettle-return',
      text: 'Kettle from Briscoes died after 5 mo. Took it back under the CGA - swapped for a new one, bank statement was enough w/o receipt.',
    },
    {
      id: 'fence',
      text: 'Sione & Lani at no. 14 - new fence quote $2,600, splitting 50/50. They sort the builder, we pay our half by end of Oct.',
    },
    {
      id: 'garden',
      text: 'Planted Sweet 100 tomatoes + basil in the raised bed 3 Oct. Sheep pellets from Mitre 10 $22.',
    },
    {
      id: 'plumber',
      text: 'Dave from Rapid Plumbing fixed the leaking cylinder valve, $265 incl GST. Says the cylinder is 18 yrs old, replace within 2 yrs.',
    },
    {
      id: 'te-reo-course',
      text: 'Enrolled in te reo night course at MIT - Mon 6-8pm, 10 wks from 4 Aug, $120 for the term.',
    },
    {
      id: 'neon-cancelled',
      text: 'Cancelled Neon ($18.99/mo) - only watched it once since June. Keeping Netflix for the kids.',
    },
    {
      id: 'second-car',
      text: 'Decided no second car. Tom will bus to work on his AT HOP, approx $50/wk - way cheaper than insurance + petrol + parking.',
    },
    {
      id: 'ginger-crunch',
      text: "Mum's ginger crunch: base 125g butter, 1/2 cup sugar, 1.5 cups flour, 1 tsp baking powder, 1 tsp ginger - 180C for 20 min. Icing: 75g butter, 2 tbsp golden syrup, 1 cup icing sugar, 2 tsp ginger.",
    },
    {
      id: 'paknsave-list',
      text: "Pak'nSave: 2 x 2L milk, Weet-Bix, bananas, 1kg mince, rice, dishwasher tabs, Whiskas.",
    },
    {
      id: 'aroha-loan',
      text: 'Lent Aroha $300 for her car repair on 3 Aug. Paying back $50/wk, got $100 so far.',
    },
  ],
  questions: [
    {
      question: 'How much is the electricity bill this month, and when do I have to pay it?',
      answers: ['power-bill'],
      ask: 'amount',
    },
    {
      question: 'When does our broadband contract run out?',
      answers: ['fibre-plan'],
      ask: 'date',
    },
    {
      question: 'When am I seeing the family doctor, and what should I take along?',
      answers: ['gp-appt'],
      ask: 'fact',
    },
    {
      question: "What's the quote for the work on my teeth?",
      answers: ['dentist'],
      ask: 'amount',
    },
    {
      question: 'Is my knee rehab covered, or am I paying for it all myself?',
      answers: ['physio-knee'],
      ask: 'fact',
    },
    {
      question: 'What does Noah need to buy for the pool?',
      answers: ['noah-swim'],
      ask: 'fact',
    },
    {
      question: 'On which days is Ruby away overnight with her class?',
      answers: ['ruby-camp'],
      ask: 'date',
    },
    {
      question: 'Why did we have to take the dog in last week?',
      answers: ['biscuit-vet'],
      ask: 'reason',
    },
    {
      question: "When is the car's safety inspection due?",
      answers: ['corolla'],
      ask: 'date',
    },
    {
      question: "What's the booking code for our Queenstown trip?",
      answers: ['qt-flights'],
      ask: 'fact',
    },
    {
      question: 'How much did the plane tickets for the family come to?',
      answers: ['qt-flights'],
      ask: 'amount',
    },
    {
      question: "What's happening with my meeting with Hemi, and what do I have to get ready for it?",
      answers: ['work-review'],
      ask: 'summary',
    },
    {
      question: 'What share of my pay goes into my retirement scheme now?',
      answers: ['kiwisaver'],
      ask: 'amount',
    },
    {
      question: "What dessert are we taking to Nana's party?",
      answers: ['nana-80th'],
      ask: 'fact',
    },
    {
      question: 'What did the new washer cost us?',
      answers: ['washing-machine'],
      ask: 'amount',
    },
    {
      question: 'What happened with the jug that packed up?',
      answers: ['kettle-return'],
      ask: 'summary',
    },
    {
      question: 'How much is our half of the new boundary fence going to be?',
      answers: ['fence'],
      ask: 'amount',
    },
    {
      question: 'What did we agree with next door about getting the boundary sorted?',
      answers: ['fence'],
      ask: 'decision',
    },
    {
      question: 'What have I put in the vege patch so far?',
      answers: ['garden'],
      ask: 'summary',
    },
    {
      question: 'Why does the tradie reckon we will need a new hot water tank soon?',
      answers: ['plumber'],
      ask: 'reason',
    },
    {
      question: 'Which evening is my Māori language class?',
      answers: ['te-reo-course'],
      ask: 'fact',
    },
    {
      question: 'Why did we drop that TV streaming subscription?',
      answers: ['neon-cancelled'],
      ask: 'reason',
    },
    {
      question: 'Which streaming service are we hanging on to?',
      answers: ['neon-cancelled'],
      ask: 'decision',
    },
    {
      question: 'What did we end up deciding about buying another vehicle?',
      answers: ['second-car'],
      ask: 'decision',
    },
    {
      question: "Roughly what will Tom's public transport fares come to each week?",
      answers: ['second-car'],
      ask: 'amount',
    },
    {
      question: 'What oven temperature and how long for the ginger slice?',
      answers: ['ginger-crunch'],
      ask: 'fact',
    },
    {
      question: 'What do I need to grab at the supermarket?',
      answers: ['paknsave-list'],
      ask: 'summary',
    },
    {
      question: 'How much has Aroha still got to pay me back?',
      answers: ['aroha-loan'],
      ask: 'amount',
    },
    {
      question: 'List every health appointment I have coming up.',
      answers: ['gp-appt', 'dentist', 'physio-knee'],
      ask: 'list',
    },
    {
      question: 'Which household utilities am I paying for, going by my notes?',
      answers: ['power-bill', 'fibre-plan'],
      ask: 'list',
    },
    {
      question: "Can you make a table of the kids' activities and what each one costs?",
      answers: ['noah-swim', 'ruby-camp'],
      ask: 'table',
    },
    {
      question: "Put the car's upcoming dates and costs in a table for me.",
      answers: ['corolla'],
      ask: 'table',
    },
  ],
  unrelated: [
    // Next door to a note: same topic or person, a fact the notes do not hold.
    "What time are Ruby's swimming lessons?",
    'When is the cat due for its vaccinations?',
    'Did we book a rental car for Queenstown?',
    'How much was the last water bill?',
    "What's Dr Patel's phone number?",
    "How much did Aroha's car repair cost altogether?",
    'How much is the car insurance each month?',
    // Clearly unrelated everyday questions.
    'How do I get red wine out of the carpet?',
    'Who won the Bledisloe Cup last year?',
    "What's the weather forecast for Wellington tomorrow?",
    'When does daylight saving end this year?',
    'Which library book is overdue?',
    'How much is a return ferry to Waiheke?',
    "What time does the Sunday farmers' market open?",
  ],
};
