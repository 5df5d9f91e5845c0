/** Runs every benchmark and prints its figures. Run: npm run bench */
import { benchCsv, type BenchFigure } from "./csv";

async function main(): Promise<void> {
  const figures: BenchFigure[] = [...(await benchCsv())];
  const width = Math.max(...figures.map((f) => f.name.length));
  for (const f of figures) console.log(`${f.name.padEnd(width)}  ${String(f.value).padStart(8)} ${f.unit}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
