// A seeded generator for the exec tests' data and draws (the same every run).

/** `draw(n)`: the next integer in [0, n). */
export function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}
