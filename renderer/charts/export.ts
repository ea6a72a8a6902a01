/**
 * Exporting a chart: the SVG element serialised as a standalone file (xmlns, size, the fonts and
 * colours as attributes: charts use no stylesheet), and a PNG drawn from that file onto a canvas
 * at 2× through a Blob URL image (the CSP allows img-src blob:). Downloads go through an
 * <a download> of a Blob URL, which works in the browser and in the desktop app alike.
 */

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Seams for tests (happy-dom neither decodes images nor downloads). */
export const exportHooks = {
  loadImage(url: string): Promise<CanvasImageSource> {
    return new Promise((resolve, reject) => {
      const image = new Image();
      image.onload = () => resolve(image);
      image.onerror = () => reject(new Error('The chart could not be drawn as an image.'));
      image.src = url;
    });
  },
  download(fileName: string, blob: Blob): void {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.appendChild(link);
    link.click();
    link.remove();
    // The download has read the Blob by then; the URL would otherwise pin it in memory.
    setTimeout(() => URL.revokeObjectURL(url), 30_000);
  },
};

export interface SvgSize {
  width: number;
  height: number;
}

/** The chart's own size: its viewBox, else its width/height attributes. */
export function svgSize(svg: SVGSVGElement): SvgSize {
  const box = (svg.getAttribute('viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0)
    return { width: box[2]!, height: box[3]! };
  return { width: Number(svg.getAttribute('width')) || 600, height: Number(svg.getAttribute('height')) || 400 };
}

/** A standalone SVG document (with the XML declaration and the SVG namespace) for the element. */
export function serializeSvg(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const { width, height } = svgSize(svg);
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  // Declared once below: an xmlns set as a plain attribute would be written twice by some serialisers.
  clone.removeAttribute('xmlns');
  // Page-only attributes mean nothing in a file.
  for (const element of [clone, ...Array.from(clone.querySelectorAll('*'))]) {
    for (const name of element.getAttributeNames()) {
      if (name.startsWith('data-') || name === 'class' || name === 'tabindex' || name === 'focusable')
        element.removeAttribute(name);
    }
  }
  let text = new XMLSerializer().serializeToString(clone);
  // Serialisers add the namespace for an element created as SVG, but not every DOM does.
  const rootTag = text.slice(0, text.indexOf('>'));
  if (!/\sxmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(rootTag))
    text = text.replace(/^<svg\b/, `<svg xmlns="${SVG_NS}"`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`;
}

/** The SVG text drawn on a canvas at `scale`× on white, as a PNG Blob. */
export async function svgToPng(svgText: string, size: SvgSize, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const image = await exportHooks.loadImage(url);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(size.width * scale);
    canvas.height = Math.round(size.height * scale);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This window cannot draw on a canvas.');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, size.width, size.height);
    return await new Promise<Blob>((resolve, reject) => {
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be encoded.'))), 'image/png');
    });
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** A file name from free text (dataset and judge names may hold anything). */
export function safeFileName(...parts: string[]): string {
  const joined = parts
    .map((part) =>
      part
        .normalize('NFKC')
        .replace(/[^\p{L}\p{N}._-]+/gu, '-')
        .replace(/^-+|-+$/g, ''),
    )
    .filter(Boolean)
    .join('-');
  return (joined || 'loupe').slice(0, 120);
}
