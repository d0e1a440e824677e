"""Tokyo Table Companion: a local service that watches a TOKYO JIDOHANBAIKI / TOKYO METRO table,
reconciles what it sees with a rules engine and serves a dashboard to the phones at the table."""

__version__ = "0.1.0"
