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

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    // LiveCommunicationKit's report answers a VoIP push as CallKit's does.
    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType
    ) async {
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        let handle = Handle(type: .generic, value: caller, displayName: caller)
        let update = Conversation.Update(localMember: handle, members: [handle], activeRemoteMembers: [handle])
        do {
            try await manager.reportNewIncomingConversation(uuid: UUID(), update: update)
        } catch {
            print("conversation not shown: \(error)")
        }
    }
}
