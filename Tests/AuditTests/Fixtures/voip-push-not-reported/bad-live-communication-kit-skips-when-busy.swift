// swift-format-ignore-file
import LiveCommunicationKit
import PushKit

@available(iOS 17.4, *)
final class ConversationCenter: NSObject, PKPushRegistryDelegate {
    let manager = ConversationManager(
        configuration: ConversationManager.Configuration(
            ringtoneName: nil, iconTemplateImageData: nil, maximumConversationGroups: 1,
            maximumConversationsPerConversationGroup: 1, includesConversationInRecents: true, supportsVideo: false,
            supportedHandleTypes: [.generic]))
    var inConversation = false

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard !inConversation else {
            completion()
            return // expect: voip-push-not-reported
        }
        let handle = Handle(type: .generic, value: "caller", displayName: "Caller")
        let update = Conversation.Update(localMember: handle, members: [handle], activeRemoteMembers: [handle])
        Task {
            try? await manager.reportNewIncomingConversation(uuid: UUID(), update: update)
            completion()
        }
    }
}
