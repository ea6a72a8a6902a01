/**
 * The reveal gate's question, naming the person it reveals for and what it does to their labels
 * (the core records the reveal only with that person confirmed by name). Keyboard first: it takes
 * the keys while open (Enter reveals and opens, Esc cancels, Tab moves between the two answers) and
 * gives focus back to where it was on cancel.
 * Its layer opened with the key that asked for the view (state/reveal.ts).
 */
import { useLayoutEffect, useRef } from 'react';
import { isPlain, type Layer } from '../keys/dispatcher';
import { cycleFocus } from '../keys/focus';
import { useLayerKeys } from '../keys/hooks';
import { cancelReveal, confirmReveal, useReveal, VIEW_TITLE, type RevealQuestion } from '../state/reveal';
import { plural } from '../format';

export function RevealDialog() {
  const asking = useReveal((state) => state.asking);
  const pending = useReveal((state) => state.pending);
  const layer = useReveal((state) => state.layer);
  if (!asking || !layer) return null;
  return <Question asking={asking} pending={pending} layer={layer} />;
}

function Question({ asking, pending, layer }: { asking: RevealQuestion; pending: boolean; layer: Layer }) {
  const card = useRef<HTMLDivElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const stay = useRef<HTMLButtonElement>(null);
  // Whatever had focus when the question came up gets it back on Esc.
  const returnTo = useRef<Element | null>(document.activeElement);

  useLayoutEffect(() => confirm.current?.focus(), []);
  // The views' single-key shortcuts must not act behind the question.
  useLayerKeys(layer, (press) => {
    if (!isPlain(press)) return 'native';
    if (press.key === 'Escape') cancel();
    // Enter presses the focused button: "reveal for …" unless the user tabbed to "stay blind".
    else if (press.key === 'Enter') {
      if (press.target === stay.current) cancel();
      else void confirmReveal();
    } else if (press.key === 'Tab') return cycleFocus(card.current, press);
    else if (press.key === ' ' && press.activatable) return 'native';
    return 'handled';
  });

  function cancel() {
    cancelReveal();
    const target = returnTo.current;
    if (target instanceof HTMLElement && target.isConnected && target !== document.body) target.focus();
    else document.querySelector<HTMLElement>('.app-main')?.focus();
  }

  const title = VIEW_TITLE[asking.view];
  const summaries = plural(asking.count, 'summary');
  return (
    <div className="overlay" role="presentation" data-testid="reveal-dialog">
      <div
        className="overlay-card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="reveal-title"
        aria-describedby="reveal-text"
        ref={card}
      >
        <h2 id="reveal-title">
          Open {title} as {asking.annotator}?
        </h2>
        <p id="reveal-text" data-testid="reveal-text">
          Opening {title} shows judge verdicts and benchmark labels for {summaries} {asking.annotator} has not finished.
          It is recorded as {asking.annotator}&apos;s reveal: the labels {asking.annotator} gives on them afterwards are
          marked not blind, and {asking.annotator}&apos;s scaffold alignments on them leave the blind audit. If you are
          not {asking.annotator}, stay blind and choose your own name.
        </p>
        <div className="row">
          <button
            ref={confirm}
            type="button"
            className="primary"
            disabled={pending}
            onClick={() => void confirmReveal()}
            data-testid="reveal-confirm"
          >
            Reveal for {asking.annotator} <kbd>Enter</kbd>
          </button>
          <button ref={stay} type="button" onClick={cancel} data-testid="reveal-cancel">
            Stay blind <kbd>Esc</kbd>
          </button>
        </div>
      </div>
    </div>
  );
}
