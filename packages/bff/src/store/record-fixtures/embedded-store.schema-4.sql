-- The embedded store's database as the release with the funding ledger's holds as entries of their own writes it
-- (schema version 4): the data of embedded-store.schema-3.sql opened by it (migrated: the entry books' tables),
-- then, through the reservation ledger at 1795530300000, an unpaid hold of 424 and a firm hold of 389 settled at
-- once (its spend in the month's total, its entry marked settled). Dumped with the sqlite3 shell. Never edit: add
-- a new dump.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
CREATE TABLE IF NOT EXISTS "entries" (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    value BLOB NOT NULL,
    version INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
INSERT INTO entries VALUES(1,'checkout-index-built','2026-11-26T11:23:04.161Z',1,4131129600000);
INSERT INTO entries VALUES(2,'checkout:chk_jV5y5_Zo7Oa-gT9mBCnPgw',X'017d54cb8ee33610fc15a3cfb4ad97ed156fb3335963030c92cc63034c10186db225734c915a921a5b3bf0793f636fb9e40372cf17ed2704943db3ef5c04b1592c7697aaf4085e6ca8c137e4bcb20678ca4049e02036dbd5fd9b593f5bddd9c52f38ae6fcae6e5b9f9b5de01839d923585d711e737b60506641e94b3a621138043201f8081271f49075c9f26d7f2ee6afcbb78b72e7eaee5f94f4b85cbc50530b04ed5ca00874d08ade7d369e49cd01e9b56133068ac24e02095231169b7cac49b95f75ddc26af9a7885e9b466e00386ce030747287b60d0b53e38c2e6b7ce061a5a791b6895dedb16e7f32c974552a649356b9a488d8dede2048fa7b74b65ac035e942503d1394746f4c0e1f6fa020e0c761babc9a3a66f0ee42fbe7ba0d56822d65615b9a1175b552bac5669bd1e2fe42a0506adb3b21347715b273fed0283a042bc0cceaa7a8346f98066948e962f47fffe335a8c24f61e1848f241190cc3e77c047154efec153030d87c751c18541a6be0f0f1c3fbbf3e7e78ff771ceca470a5f624232306bc5c034f93ac882ba5fb8b53e9287a67b46a542009bc42ed8981ecdcd0c145ec892fe2584a7cabd30f84add4032d8143677cd7b6d645660681c2869c32b1db2feab6bd6d8143dda1431368001b0a3bebb61ef81f70be5106479776ad348d0621ae95a903e9b8f893c1097bd3b734e08b65aca208eae159461fd0057f16dd5d29e7c34a5863480c2ac740186977c761f3e47060400d2afd644a6dc5e01220130547a53b474f9b2df63136575451f4d773dd3a492eba65c8a38d56c06df256aceb5dd615ea21ec944fa3639e2d2f6c4ccc51ac988a2bf2b673826e9d3ea58b4fa769b69824936492f23ccfe7e93402fdf05cedef43fa4eef932d8a662bb3bddc1bfc2c6043d2be0f3a3068350a3ae6ff1130046adae087ff8926f4746bc2931e0706be37826454335d94b3599e64f3ac9c950c68df2a47479db3249b8fd3749c153769c1f39267d9e44599dc0103e108c39100be8465458495f93cc2ba56fe3f6c56dec1e13f',2,4102444800000);
INSERT INTO entries VALUES(3,'quote:quo_VKxyGl1Y40vX7mNsyBKCzA',X'0195924d6edb301085af22cc9a2e2c458d62ee9c18355ac32ed2fcb44d51080c3992084ba4cc1fdb4ae0758e915d363d40f73d518e50500e5224280a74c9c1c7c7f71ee7162cafb0619768acd40a684c400aa0b0f23abf9c6dbb691d7f4d87eb2f59b3b0ddf1ece4660c04365294e8de07ce56ba1db4ac0302166dd0e8c7d9e97ae4e7a7c3c68bcf53356bd79fd62bbd586440c0b7d61964cda9d70e7b78e530cf7456f043678cda6ab7e48578db54404017059a1ed24591b3228fcbeb4126f218082ca50a0ea4b51e81005ad90452f9ba26d0d64c01bdfda7406bb4f07c9fa335e28f3c1070d2d50814c645593125ad632a8aa3e971f4eb6794458275160808b44e2ae6fae66e816bd15f790704146b5e5d070245cd4aa0f0787ff7f0787ff70376cf210ab94511149963f36ba0f13049c349d6dde469b4cfe5552d1be950002d586d9180f0a67730099e6846a0359263c8ce1aed959b4ba50dd0743422c0bd31a87807142ece26e1fd42ae710a14bcb2be6db509ca041cba0a8d54c1ed8bb96e2f5aa0507a669872d8c30add469ba505fa0d4e2aa95834d7d7b2c6681c8a3893aa745887c377024fec79d762cfa7d33065dcc9f5738dd631e3ecd80185421aeb72ae9542deb71c764f09bdd9873d18ee76ff997753e91a2d0b7ffbaaa083a3bf16c42be44bedf75bc2ab65fe61e567db8fdbc974b1a92f5d76510a3dba29810037c81c8ade78324c0e07713c48d2f338a5494a93e4cde8687415f674db4a83fb7c2fb183d11ecbae60f71b',1,4102444800000);
CREATE TABLE book_entries (
    book TEXT NOT NULL,
    id TEXT NOT NULL,
    value TEXT NOT NULL,
    deadline INTEGER,
    PRIMARY KEY (book, id)
  ) WITHOUT ROWID;
INSERT INTO book_entries VALUES('funding-ledger:test:sandbox-url-d:acc_shop','chk_Hc7Bn1Xs4Dm9Qf2Lk8Wr0e','{"hold":{"amountMinor":389,"currency":"USD","holdUntilMs":1795533900000,"settledAtMs":1795530300000,"unpaidBy":null,"payment":null},"proposal":null,"endedUntilMs":null,"counted":{"totals":{},"marks":["settled|001795530300000|chk_Hc7Bn1Xs4Dm9Qf2Lk8Wr0e"]}}',1795530420000);
INSERT INTO book_entries VALUES('funding-ledger:test:sandbox-url-d:acc_shop','chk_Zq0v3Lr8TnYw2Kd5Pa1xGg','{"hold":{"amountMinor":424,"currency":"USD","holdUntilMs":1795530900000,"settledAtMs":null,"unpaidBy":{"address":"x8Gm2Qe0Vt4Rk1Lc","session":"Jd3Fw9Ta6Yp0Nb2S"},"payment":null},"proposal":null,"endedUntilMs":null,"counted":{"totals":{"amount:USD":424,"count:USD":1,"unpaid:USD":424,"unpaid-count:USD":1},"marks":["address|x8Gm2Qe0Vt4Rk1Lc|001795530900000|chk_Zq0v3Lr8TnYw2Kd5Pa1xGg","session|Jd3Fw9Ta6Yp0Nb2S|001795530900000|chk_Zq0v3Lr8TnYw2Kd5Pa1xGg"]}}',1795530900000);
CREATE TABLE book_totals (
    book TEXT NOT NULL,
    name TEXT NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (book, name)
  ) WITHOUT ROWID;
INSERT INTO book_totals VALUES('funding-ledger:test:sandbox-url-d:acc_shop','amount:USD',424);
INSERT INTO book_totals VALUES('funding-ledger:test:sandbox-url-d:acc_shop','count:USD',1);
INSERT INTO book_totals VALUES('funding-ledger:test:sandbox-url-d:acc_shop','spent:2026-11:USD',389);
INSERT INTO book_totals VALUES('funding-ledger:test:sandbox-url-d:acc_shop','unpaid-count:USD',1);
INSERT INTO book_totals VALUES('funding-ledger:test:sandbox-url-d:acc_shop','unpaid:USD',424);
CREATE TABLE book_marks (
    book TEXT NOT NULL,
    mark TEXT NOT NULL,
    PRIMARY KEY (book, mark)
  ) WITHOUT ROWID;
INSERT INTO book_marks VALUES('funding-ledger:test:sandbox-url-d:acc_shop','address|x8Gm2Qe0Vt4Rk1Lc|001795530900000|chk_Zq0v3Lr8TnYw2Kd5Pa1xGg');
INSERT INTO book_marks VALUES('funding-ledger:test:sandbox-url-d:acc_shop','session|Jd3Fw9Ta6Yp0Nb2S|001795530900000|chk_Zq0v3Lr8TnYw2Kd5Pa1xGg');
INSERT INTO book_marks VALUES('funding-ledger:test:sandbox-url-d:acc_shop','settled|001795530300000|chk_Hc7Bn1Xs4Dm9Qf2Lk8Wr0e');
CREATE INDEX counters_by_expiry ON counters (expires_at);
CREATE INDEX queue_items_by_partition ON queue_items (queue, partition, due_at);
CREATE INDEX queue_items_by_added ON queue_items (queue, added_at);
CREATE INDEX queue_partitions_by_claimable ON queue_partitions (queue, claimable_at);
CREATE INDEX index_entries_by_score ON index_entries (name, score, member);
CREATE INDEX index_entries_by_expiry ON index_entries (expires_at);
CREATE UNIQUE INDEX entries_by_key ON entries (key);
CREATE INDEX entries_by_expiry ON entries (expires_at);
CREATE INDEX book_entries_by_deadline ON book_entries (book, deadline) WHERE deadline IS NOT NULL;
COMMIT;
PRAGMA user_version = 4;
