/**
 * Fifty questions about things BEIR SciFact's corpus (biomedical abstracts)
 * does not hold: general knowledge, everyday life, business and software, and
 * on purpose some science next door to it (physics, astronomy, chemistry,
 * geology), where shared words make a false "answer" most tempting. A grounded
 * chat must answer each with empty sources.
 */
export const ABSENT_QUESTIONS: readonly string[] = [
  // everyday life
  'What temperature should I bake sourdough bread at?',
  'How do I remove a red wine stain from a carpet?',
  'How often should I water a cactus in winter?',
  'What is the best way to fold a fitted sheet?',
  'How long should I boil an egg for a soft yolk?',
  'Which tyres are best for driving on snow?',
  'How do I renew my passport online?',
  'What is a good name for a golden retriever puppy?',
  // general knowledge
  'Who won the 1998 FIFA World Cup final?',
  'What is the capital city of Australia?',
  'Who painted the ceiling of the Sistine Chapel?',
  'When did the Berlin Wall fall?',
  'Who wrote the novel Pride and Prejudice?',
  'How tall is the Eiffel Tower?',
  'Which river flows through Budapest?',
  'What language is spoken in Brazil?',
  'Who was the first person to walk on the Moon?',
  'How many players are on a rugby union team?',
  // business, money, law
  'What was our revenue in the third quarter of 2025?',
  'When is the next board meeting scheduled?',
  'What is the VAT rate for restaurants in France?',
  'How do I file a trademark for a company logo?',
  'What were the minutes of the marketing offsite in Lisbon?',
  'Who approved the purchase order for the new office chairs?',
  'What is the notice period in my employment contract?',
  'How much does a first-class stamp cost in the UK?',
  // software and computing
  'How do I configure a Kubernetes ingress controller?',
  'What is the difference between TCP and UDP?',
  'How do I undo the last commit in git?',
  'Which port does PostgreSQL listen on by default?',
  'How do I center a div with CSS flexbox?',
  'What does the JavaScript event loop do?',
  'How do I rotate an AWS access key?',
  'What is the maximum size of a DynamoDB item?',
  // science next door: physics, astronomy, chemistry, earth
  'How far is Mars from the Sun?',
  'Which planet in the solar system has the most moons?',
  'What is the speed of sound in sea water?',
  'How do black holes emit Hawking radiation?',
  'What is the half-life of uranium-238?',
  'Why is the sky blue during the day?',
  'How are diamonds formed deep in the Earth?',
  'What causes the northern lights?',
  'How does a lithium-ion battery store charge?',
  'What is the melting point of tungsten?',
  'How do tectonic plates cause earthquakes?',
  'What is the chemical formula of table salt?',
  'How fast does light travel through glass?',
  'What powers the engines of the Saturn V rocket?',
  'How are hurricanes named each season?',
  'What is the tallest mountain in the Alps?',
];
