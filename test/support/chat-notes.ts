/** Notes the chat tests capture (over HTTP and in the console): a status report, a table of figures, a recipe. */

export const FALCON = `Project Falcon status report

The Falcon launch moved to 14 March 2027 because the supplier delayed the battery cells.
Budget: 2.4 million euros, of which 1.1 million is already spent.
The team lead is Ingrid Solberg; she reports to the CTO every Friday.

Risks
The main risk is the battery supplier in Gdansk.
A second risk is the certification in Japan, expected to take 9 weeks.`;

export const REVENUE = `Quarterly revenue 2026 (thousand euros)
Q1: 120
Q2: 150
Q3: 90
Q4: 200`;

export const SOURDOUGH = `Sourdough notes
Feed the starter twice a day with equal weights of flour and water.
Bake the loaf at 240 degrees for 20 minutes with the lid on, then 25 minutes without it.`;
