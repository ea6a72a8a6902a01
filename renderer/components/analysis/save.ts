/**
 * Saving what the view produced: text files (JSON, Markdown, SVG) through the native save dialog
 * on the desktop (as the label export does), a Blob download in the browser; PNGs always as a
 * Blob download (the save dialog takes text only).
 */
import { errorMessage } from '../../api/errors';
import { exportHooks, serializeSvg, svgSize, svgToPng } from '../../charts/export';
import { bridge, useSession } from '../../state/session';

/** What happened, for a status line; null when the user cancelled the dialog. */
export async function saveText(fileName: string, content: string, mime: string): Promise<string | null> {
  if (useSession.getState().info?.fileDialogs) {
    const { path } = await bridge().call('dialog.saveExport', { fileName, content });
    return path ? `Saved ${path}` : null;
  }
  exportHooks.download(fileName, new Blob([content], { type: mime }));
  return `Downloaded ${fileName}`;
}

export async function saveSvg(svg: SVGSVGElement, baseName: string): Promise<string | null> {
  return saveText(`${baseName}.svg`, serializeSvg(svg), 'image/svg+xml');
}

export async function savePng(svg: SVGSVGElement, baseName: string): Promise<string> {
  const png = await svgToPng(serializeSvg(svg), svgSize(svg), 2);
  exportHooks.download(`${baseName}.png`, png);
  return `Downloaded ${baseName}.png`;
}

export async function reportOutcome(
  action: () => Promise<string | null>,
): Promise<{ ok: boolean; text: string } | null> {
  try {
    const text = await action();
    return text ? { ok: true, text } : null;
  } catch (err) {
    return { ok: false, text: errorMessage(err) };
  }
}
