/**
 * Schema 14 (paged lists): claims.list and keyfacts.list read a page of a dataset's summaries
 * (documents) in key order after a cursor key. The UNIQUE (dataset_id, summary_id) and
 * (dataset_id, doc_id) indexes hold a dataset's rows in id-text order, so that page needed a temp
 * B-tree over the whole dataset; these hold them in key order, so a page is an index range of its
 * own length. They also hold the ids a search reads (summary id and document; doc id), so a
 * search or a count scans the index alone, never the rows with their texts.
 */
export const migration014 = `
CREATE INDEX summaries_dataset_key ON summaries(dataset_id, id, summary_id, document_id);
CREATE INDEX documents_dataset_key ON documents(dataset_id, id, doc_id);
`;
