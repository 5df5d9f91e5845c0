/** A chart's SVG as a colour-blind reader sees it: every colour in it passed through the simulation. */
import { formatColour, parseColour, simulateColourBlindness, type ColourBlindness } from "../../src/charts/colour-vision";

const COLOUR = /#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b|rgb\(\s*[\d.]+\s*,\s*[\d.]+\s*,\s*[\d.]+\s*\)/g;

/** The SVG with every `#rgb`, `#rrggbb` and `rgb(…)` colour replaced by its simulated colour. */
export function simulateSvg(svg: string, kind: ColourBlindness = "deuteranopia"): string {
  return svg.replace(COLOUR, (css) => formatColour(simulateColourBlindness(parseColour(css), kind)));
}

/** The fill colours of the legend symbols (one per category), in order. */
export function legendSymbolFills(svg: string): string[] {
  const fills: string[] = [];
  const re = /<g class="mark-symbol role-legend-symbol"[^>]*>([\s\S]*?)<\/g>/g;
  for (let m = re.exec(svg); m; m = re.exec(svg)) {
    for (const path of m[1]!.matchAll(/fill="([^"]+)"/g)) fills.push(path[1]!);
  }
  return fills;
}

/** The stop colours of each gradient legend, in order. */
export function gradientStops(svg: string): string[][] {
  return [...svg.matchAll(/<linearGradient[^>]*>([\s\S]*?)<\/linearGradient>/g)].map((m) => [...m[1]!.matchAll(/stop-color="([^"]+)"/g)].map((s) => s[1]!));
}
