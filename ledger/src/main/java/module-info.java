/**
 * The SQLite evidence ledger, found with {@link java.util.ServiceLoader} as an {@link
 * dev.capability.kernel.api.store.EvidenceStoreProvider}.
 */
module dev.capability.ledger {
  requires static transitive org.jspecify;
  requires transitive dev.capability.kernel.api;
  requires com.fasterxml.jackson.databind;
  requires java.sql;
  requires org.xerial.sqlitejdbc;
  requires org.slf4j;

  exports dev.capability.ledger;

  provides dev.capability.kernel.api.store.EvidenceStoreProvider
      with dev.capability.ledger.LedgerProvider;
}
