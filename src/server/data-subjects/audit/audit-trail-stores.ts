// The audit trail's three stores over one database, wired the one way they fit together: the hash
// chain, the records written through it, and the searches that only read. Each caller is handed
// the one it uses (data-subjects-module.ts, the audit CLI); none forwards to another.
import type { DatabaseOrOpener } from '../../store/database-opener';
import { AuditChainStore } from './audit-chain-store';
import { AuditRecordStore, type AuditRecordStoreOptions } from './audit-record-store';
import { AuditSearch } from './audit-search';

/** The audit trail's stores over one database. */
export interface AuditTrailStores {
  /** The hash chain: its head, its walk, retention's cut. */
  readonly chain: AuditChainStore;
  /** Lookups and administrative changes, each written with its chain entry. */
  readonly records: AuditRecordStore;
  /** The audit page's, the exports' and the person search's reads. */
  readonly search: AuditSearch;
}

/** The trail's stores over `db`; `chainKey` is deriveAuditKey(AUDIT_KEY, 'chain'). */
export function openAuditTrailStores(
  db: DatabaseOrOpener,
  options: AuditRecordStoreOptions & { readonly chainKey: Buffer },
): AuditTrailStores {
  const chain = new AuditChainStore(db, options.chainKey);
  return {
    chain,
    records: new AuditRecordStore(db, chain, options),
    search: new AuditSearch(db),
  };
}
