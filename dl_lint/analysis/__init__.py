"""Facts about code, no judgements: what a DataLoader call receives, and how sure we are."""
