/**
 * Colour arithmetic for checking that charts read for everyone: sRGB ⇄
 * linear RGB, CIE L*a*b* (D65), the CIEDE2000 colour difference, and the
 * simulation of dichromatic vision by Machado, Oliveira and Fernandes, "A
 * Physiologically-based Model for Simulation of Color Vision Deficiency"
 * (IEEE TVCG, 2009), severity 1.0, applied to linear RGB.
 */

/** An RGB colour with channels in [0, 1]. */
export type Rgb = readonly [number, number, number];

/** A CIE L*a*b* colour (L* from 0 to 100). */
export type Lab = readonly [number, number, number];

/** The kinds of colour blindness {@link simulateColourBlindness} knows. */
export type ColourBlindness = "deuteranopia" | "protanopia";

/** Machado et al. (2009), severity 1.0 matrices, rows r, g, b, for linear RGB. */
const MACHADO: Record<ColourBlindness, readonly Rgb[]> = {
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
};

/**
 * A CSS hex colour (`#rgb` or `#rrggbb`) or `rgb(r, g, b)` as sRGB channels
 * in [0, 1].
 *
 * @example
 * parseColour("#0072B2") // [0, 0.447…, 0.698…]
 */
export function parseColour(css: string): Rgb {
  const text = css.trim().toLowerCase();
  let match = /^#([0-9a-f]{6})$/.exec(text);
  if (match) {
    const hex = match[1]!;
    return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as unknown as Rgb;
  }
  match = /^#([0-9a-f]{3})$/.exec(text);
  if (match) return [...match[1]!].map((d) => parseInt(d + d, 16) / 255) as unknown as Rgb;
  match = /^rgb\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*\)$/.exec(text);
  if (match) return [Number(match[1]) / 255, Number(match[2]) / 255, Number(match[3]) / 255];
  throw new Error(`parseColour: cannot read "${css}" (use #rrggbb, #rgb or rgb(r, g, b))`);
}

/**
 * sRGB channels in [0, 1] as a `#rrggbb` hex colour (rounded, clamped).
 *
 * @example
 * formatColour([1, 0.5, 0]) // "#ff8000"
 */
export function formatColour(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255).toString(16).padStart(2, "0")).join("")}`;
}

/** One sRGB channel to linear light (IEC 61966-2-1). */
function toLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** One linear channel back to sRGB. */
function fromLinear(c: number): number {
  return c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
}

/**
 * A colour as a person with full dichromacy would see it: Machado et al.
 * (2009), severity 1.0, applied to linear RGB, clamped to the gamut.
 *
 * @example
 * simulateColourBlindness("#D55E00", "deuteranopia") // [r, g, b] in [0, 1]: a dark yellow
 */
export function simulateColourBlindness(colour: string | Rgb, kind: ColourBlindness = "deuteranopia"): Rgb {
  const linear = (typeof colour === "string" ? parseColour(colour) : colour).map(toLinear);
  return MACHADO[kind].map((row) => fromLinear(Math.min(1, Math.max(0, row[0] * linear[0]! + row[1] * linear[1]! + row[2] * linear[2]!)))) as unknown as Rgb;
}

/**
 * CIE L*a*b* of an sRGB colour, D65 white.
 *
 * @example
 * toLab("#ffffff") // ≈ [100, 0, 0]
 */
export function toLab(colour: string | Rgb): Lab {
  const [r, g, b] = (typeof colour === "string" ? parseColour(colour) : colour).map(toLinear) as [number, number, number];
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const DEG = Math.PI / 180;

/** Hue angle in degrees, [0, 360). */
function hueAngle(b: number, a: number): number {
  if (a === 0 && b === 0) return 0;
  const h = Math.atan2(b, a) / DEG;
  return h < 0 ? h + 360 : h;
}

/**
 * The CIEDE2000 colour difference ΔE₀₀ between two L*a*b* colours (CIE
 * 142-2001, kL = kC = kH = 1). About 1 is a just-noticeable difference; 10 and
 * more is easy to tell apart at a glance.
 *
 * @example
 * deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485]) // ≈ 2.0425
 */
export function deltaE2000(lab1: Lab, lab2: Lab): number {
  const [L1, a1, b1] = lab1;
  const [L2, a2, b2] = lab2;
  const meanC = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(meanC ** 7 / (meanC ** 7 + 25 ** 7)));
  const a1p = (1 + g) * a1;
  const a2p = (1 + g) * a2;
  const C1 = Math.hypot(a1p, b1);
  const C2 = Math.hypot(a2p, b2);
  const h1 = hueAngle(b1, a1p);
  const h2 = hueAngle(b2, a2p);
  const dL = L2 - L1;
  const dC = C2 - C1;
  let dh = 0;
  if (C1 * C2 !== 0) {
    dh = h2 - h1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dH = 2 * Math.sqrt(C1 * C2) * Math.sin((dh / 2) * DEG);
  const meanL = (L1 + L2) / 2;
  const meanCp = (C1 + C2) / 2;
  let meanH = h1 + h2;
  if (C1 * C2 !== 0) {
    if (Math.abs(h1 - h2) > 180) meanH += meanH < 360 ? 360 : -360;
    meanH /= 2;
  }
  const T = 1 - 0.17 * Math.cos((meanH - 30) * DEG) + 0.24 * Math.cos(2 * meanH * DEG) + 0.32 * Math.cos((3 * meanH + 6) * DEG) - 0.2 * Math.cos((4 * meanH - 63) * DEG);
  const dTheta = 30 * Math.exp(-(((meanH - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(meanCp ** 7 / (meanCp ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (meanL - 50) ** 2) / Math.sqrt(20 + (meanL - 50) ** 2);
  const SC = 1 + 0.045 * meanCp;
  const SH = 1 + 0.015 * meanCp * T;
  const RT = -Math.sin(2 * dTheta * DEG) * RC;
  return Math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH));
}

/**
 * ΔE₀₀ between two CSS colours as seen with normal vision, or, given `kind`,
 * as a person with that colour blindness sees them (both simulated first).
 *
 * @example
 * colourDistance("#0072B2", "#E69F00", "deuteranopia") // ≈ 63: still far apart
 * colourDistance("#59a14f", "#e15759", "deuteranopia") // ≈ 0.7: this green and red merge
 */
export function colourDistance(a: string, b: string, kind?: ColourBlindness): number {
  const see = (c: string) => toLab(kind === undefined ? c : simulateColourBlindness(c, kind));
  return deltaE2000(see(a), see(b));
}
