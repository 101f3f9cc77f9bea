/** Share of reference words found, in order, in the recognized text (longest common subsequence of words). */
export function wordAccuracy(reference: string, recognized: string): number {
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const ref = words(reference);
  const hyp = words(recognized);
  const row = new Array<number>(hyp.length + 1).fill(0);
  for (const r of ref) {
    let diagonal = 0;
    for (let j = 1; j <= hyp.length; j += 1) {
      const above = row[j]!;
      row[j] = r === hyp[j - 1] ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[hyp.length]! / ref.length;
}
