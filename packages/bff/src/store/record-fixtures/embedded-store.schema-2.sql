-- The embedded store's database as the release with the partner lists writes it (schema version 2): the data of
-- embedded-store.schema-1.sql opened by it (migrated) and its checkout indexed at start (index_entries, the mark
-- checkout-index-built). Written through the store's own API, dumped with the sqlite3 shell; expiry times near
-- 2100. Never edit: add a new dump.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE entries (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    version INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
INSERT INTO entries VALUES('checkout-index-built','2026-11-26T11:23:04.161Z',1,4131129600000);
INSERT INTO entries VALUES('checkout:chk_jV5y5_Zo7Oa-gT9mBCnPgw','{"schemaVersion":1,"id":"chk_jV5y5_Zo7Oa-gT9mBCnPgw","widgetId":"shop","environment":"test","sessionId":"y10SdZR-Wczb4JgdCEGiaG7D","origin":"https://shop.example","mode":"direct","kind":"issue","esimId":null,"status":"ready","upstreamQuoteId":"qte_1jopa6623d40910f5mmt","amount":{"amountMinor":499,"currency":"USD"},"wholesale":{"amountMinor":389,"currency":"USD"},"plan":{"offerId":"off_af_1gb-7d_1","productId":"prd_af_1gb-7d","title":"Afghanistan 1 GB · 7 days","destination":{"code":"AF","name":"Afghanistan","flag":"🇦🇫"},"kind":"fixed","dataMb":1024,"dailyDataMb":null,"unlimited":false,"durationDays":7,"price":{"amountMinor":499,"currency":"USD"},"fiveG":"unsupported","tethering":"supported","topUp":"guaranteed","networks":["China Mobile AF","Singtel AF"],"networkTypes":["4G"],"activation":{"startsAt":"first_connection","windowDays":30}},"email":null,"locale":"en","failure":null,"paymentReference":null,"order":{"id":"ord_aak0qcbgw2u4ivtwis11","status":"completed","esimResourceUrl":"http://127.0.0.1:33361/esims/esim_xjt1zlx0kacmkd2xdxna","esimId":"esim_xjt1zlx0kacmkd2xdxna"},"placement":{"attempts":1,"leaseUntil":null},"syncedAt":1795530262959,"expiresAt":"2026-11-24T14:39:22.890Z","createdAt":"2026-11-24T14:24:22.936Z","updatedAt":"2026-11-24T14:24:22.959Z"}',2,4102444800000);
INSERT INTO entries VALUES('quote:quo_VKxyGl1Y40vX7mNsyBKCzA','{"schemaVersion":1,"id":"quo_VKxyGl1Y40vX7mNsyBKCzA","widgetId":"shop-pay","sessionId":"7Qv9uMQ0mudWGnKpvRvqoNN7","upstreamQuoteId":"qte_7o7fc6trrnxotkcfd5mh","offerId":"off_af_1gb-7d_1","kind":"issue","esimId":null,"plan":{"offerId":"off_af_1gb-7d_1","productId":"prd_af_1gb-7d","title":"Afghanistan 1 GB · 7 days","destination":{"code":"AF","name":"Afghanistan","flag":"🇦🇫"},"kind":"fixed","dataMb":1024,"dailyDataMb":null,"unlimited":false,"durationDays":7,"price":{"amountMinor":499,"currency":"USD"},"fiveG":"unsupported","tethering":"supported","topUp":"guaranteed","networks":["China Mobile AF","Singtel AF"],"networkTypes":["4G"],"activation":{"startsAt":"first_connection","windowDays":30}},"price":{"amountMinor":499,"currency":"USD"},"wholesale":{"amountMinor":389,"currency":"USD"},"checkoutId":"chk_JquKxOxDGNwlVt7Ugdo9zg","createdAt":"2026-11-24T14:24:22.989Z","expiresAt":"2026-11-24T14:39:22.987Z"}',1,4102444800000);
CREATE TABLE counters (
    key TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
INSERT INTO counters VALUES('counter:sessions:203.0.113.7',3,4102444800000);
CREATE TABLE queue_items (
    queue TEXT NOT NULL,
    id TEXT NOT NULL,
    partition TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (queue, id)
  ) WITHOUT ROWID;
INSERT INTO queue_items VALUES('checkout-watch','chk_jV5y5_Zo7Oa-gT9mBCnPgw','shop',1795000001000,1795000000000);
INSERT INTO queue_items VALUES('webhook-deliveries','evt_pending_1','shop',1795000005000,1795000000000);
INSERT INTO queue_items VALUES('webhook-deliveries','evt_pending_2','shop-pay',1795000006000,1795000000000);
CREATE TABLE queue_partitions (
    queue TEXT NOT NULL,
    partition TEXT NOT NULL,
    earliest_due_at INTEGER,
    item_count INTEGER NOT NULL,
    paused_until INTEGER NOT NULL,
    claimable_at INTEGER,
    PRIMARY KEY (queue, partition)
  ) WITHOUT ROWID;
INSERT INTO queue_partitions VALUES('checkout-watch','shop',1795000001000,1,0,1795000001000);
INSERT INTO queue_partitions VALUES('webhook-deliveries','shop',1795000005000,1,0,1795000005000);
INSERT INTO queue_partitions VALUES('webhook-deliveries','shop-pay',1795000006000,1,4102444800000,4102444800000);
CREATE TABLE index_entries (
    name TEXT NOT NULL,
    member TEXT NOT NULL,
    score REAL NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (name, member)
  ) WITHOUT ROWID;
INSERT INTO index_entries VALUES('checkouts:shop','chk_jV5y5_Zo7Oa-gT9mBCnPgw',1795530262936.0,4102358400000);
INSERT INTO index_entries VALUES('checkouts:shop:esim:hLt1TxaBQEux2HnEkV4a1nI6hyjzMx8Hi55Bp6wdByE','chk_jV5y5_Zo7Oa-gT9mBCnPgw',1795530262936.0,4102358400000);
INSERT INTO index_entries VALUES('checkouts:shop:status:ready','chk_jV5y5_Zo7Oa-gT9mBCnPgw',1795530262936.0,4102358400000);
INSERT INTO index_entries VALUES('esims:shop','esim_xjt1zlx0kacmkd2xdxna',1795530262936.0,4162665600000);
CREATE INDEX entries_by_expiry ON entries (expires_at);
CREATE INDEX counters_by_expiry ON counters (expires_at);
CREATE INDEX queue_items_by_partition ON queue_items (queue, partition, due_at);
CREATE INDEX queue_items_by_added ON queue_items (queue, added_at);
CREATE INDEX queue_partitions_by_claimable ON queue_partitions (queue, claimable_at);
CREATE INDEX index_entries_by_score ON index_entries (name, score, member);
CREATE INDEX index_entries_by_expiry ON index_entries (expires_at);
COMMIT;
PRAGMA user_version = 2;
