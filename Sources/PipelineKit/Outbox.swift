public import Domain
public import Storage

extension Pipeline {
    /// Messages waiting for a sender, oldest first (with `includeAcknowledged`, sent ones too).
    public func outbox(user: UserID? = nil, includeAcknowledged: Bool = false) async throws(PipelineError)
        -> [OutboxMessage]
    {
        try await storage { (store) throws(StorageError) in
            try await store.outboxMessages(user: user, includeAcknowledged: includeAcknowledged)
        }
    }

    /// Marks messages as sent, in one transaction; acknowledging one twice changes nothing.
    /// Returns what each id was found to be.
    public func acknowledgeOutbox(_ ids: [Int64]) async throws(PipelineError) -> [Int64: OutboxAcknowledgement] {
        try await storage { (store) throws(StorageError) in try await store.acknowledgeOutboxMessages(ids) }
    }
}
