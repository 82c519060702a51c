enum PlaceholderAudit {}
