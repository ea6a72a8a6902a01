/** What the claim and key-fact panes of Annotate both take beside their own items. */
import type { AnnotationSummary } from '../../../shared/api';
import type { KeptLabels } from '../../state/claimsAndKeyFacts';

export interface ItemPaneProps {
  summary: AnnotationSummary;
  position: number;
  saving: ReadonlyMap<string, number>;
  failed: ReadonlySet<string>;
  kept: KeptLabels | null;
  lead: boolean;
  onSelect: (position: number) => void;
}
