/**
 * A table of the Analysis view under its own heading: the title stands above what it titles and
 * names the table (aria-labelledby), then what the figures are, then the table itself in a box
 * that scrolls sideways only when the table is wider than the page. A caption under a table read
 * as the title of the table below it, crediting numbers to the wrong source.
 */
import { useId, type ReactNode } from 'react';

interface TitledTableProps {
  title: ReactNode;
  /** What the figures are and how they were made, under the title. */
  about?: ReactNode;
  testId?: string;
  /** data-* attributes of the section (e.g. { 'data-source': 'human' }). */
  data?: Record<`data-${string}`, string>;
  tableClassName?: string;
  tableTestId?: string;
  /** The table's head and body. */
  children: ReactNode;
}

export function TitledTable({ title, about, testId, data, tableClassName, tableTestId, children }: TitledTableProps) {
  const headingId = useId();
  return (
    <section className="titled-table" aria-labelledby={headingId} data-testid={testId} {...data}>
      <h4 id={headingId} className="titled-table-title" data-role="table-title">
        {title}
      </h4>
      {about && (
        <p className="muted small titled-table-about" data-role="table-about">
          {about}
        </p>
      )}
      <div className="analysis-scroll">
        <table
          className={`data-table${tableClassName ? ` ${tableClassName}` : ''}`}
          aria-labelledby={headingId}
          data-testid={tableTestId}
        >
          {children}
        </table>
      </div>
    </section>
  );
}
