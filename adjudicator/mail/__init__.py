"""Play by mail: orders taken from a mailbox, receipts, deadlines, reminders, results sent, a public post."""
