/// One item of the background-execution checklist: a stable id, how bad breaking it is, why it breaks on a
/// device (with the Apple documentation it rests on), and a short before/after.
public struct Rule: Sendable, Hashable, Identifiable {
    /// Stable kebab-case id, e.g. `register-outside-launch`; CI configurations may depend on it.
    public let id: String
    public let severity: Severity
    /// A few words for summaries.
    public let title: String
    public let why: String
    public let before: String
    public let after: String

    /// Every rule, most severe first.
    public static let all: [Rule] = [
        .registerOutsideLaunch, .duplicateRegistration, .submittedNeverRegistered, .backgroundSessionCompletionHandler,
        .backgroundUploadFromData, .voipPushNotReported, .backgroundLocationModeMissing, .registeredNeverSubmitted,
        .chainNeverStarts, .resubmitBlockedByFlag, .handlerNotCompleted, .handlerMissingExpirationHandler,
        .silentPushCompletionNotCalled,
        .unpairedBeginBackgroundTask, .backgroundSessionWithoutDelegate, .backgroundEventsCompletionTooEarly,
        .identifierNotPermitted, .taskCompletedTwice, .refreshRequestRequirements, .handlerNotRescheduling,
        .permittedNeverRegistered,
    ]

    /// The rule with `id`, if there is one.
    public static func named(_ id: String) -> Rule? { all.first { $0.id == id } }
}

extension Rule {
    static let registerDocs =
        "https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:)"

    public static let registerOutsideLaunch = Rule(
        id: "register-outside-launch", severity: .critical, title: "task handler registered after launch",
        why: """
            Apple: "Registration of all launch handlers must be complete before the end of \
            applicationDidFinishLaunching(_:)", and the BackgroundTasks header calls registering after launch an \
            error. When iOS launches the app in the background to run the task, code in a view, in `.onAppear` or \
            in a dispatched block has not run, so the handler is missing; registering later raises an exception \
            that terminates the app. (\(registerDocs))
            """,
        before: """
            .onAppear {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshID, using: nil) { task in … }
            }
            """,
        after: """
            func application(_ app: UIApplication,
                             didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshID, using: nil) { task in … }
                return true
            }
            """)

    public static let duplicateRegistration = Rule(
        id: "duplicate-registration", severity: .critical, title: "identifier registered twice",
        why: """
            Apple: "Register each task identifier only once. The system kills the app on the second registration \
            of the same task identifier." SwiftUI's `.backgroundTask(.appRefresh(id))` registers the identifier \
            itself, so registering it with BGTaskScheduler as well is a second registration. (\(registerDocs))
            """,
        before: """
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { … }
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { … }
            """,
        after: """
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { … }
            """)

    public static let submittedNeverRegistered = Rule(
        id: "submitted-never-registered", severity: .critical, title: "request submitted for an unregistered task",
        why: """
            Submitting a request whose identifier has no launch handler raises NSInternalInconsistencyException \
            ("No launch handler registered for task with identifier …") and the app crashes; Apple: "Every \
            identifier in the BGTaskSchedulerPermittedIdentifiers requires a handler." (\(registerDocs))
            """,
        before: """
            try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync"))
            // no register(forTaskWithIdentifier: "com.example.sync", …) anywhere
            """,
        after: """
            // at launch:
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync", using: nil) { task in … }
            """)

    public static let backgroundSessionCompletionHandler = Rule(
        id: "background-session-completion-handler", severity: .critical,
        title: "completion handler or async call on a background URLSession",
        why: """
            A background URLSession reports results only to its delegate: tasks made with a completion handler and \
            the Swift `async` conveniences are not supported in background sessions (Apple DTS, \
            https://developer.apple.com/forums/thread/746759), and Foundation raises "Completion handler blocks are \
            not supported in background sessions. Use a delegate instead." After the app is suspended or killed \
            there is no closure left to call.
            """,
        before: """
            backgroundSession.downloadTask(with: url) { location, response, error in … }.resume()
            """,
        after: """
            backgroundSession.downloadTask(with: url).resume()
            // and handle urlSession(_:downloadTask:didFinishDownloadingTo:) in the session's delegate
            """)

    public static let backgroundUploadFromData = Rule(
        id: "background-upload-from-data", severity: .critical,
        title: "data or stream upload on a background URLSession",
        why: """
            Only uploads from a file work in a background session; data and stream uploads are not supported \
            (Apple DTS, https://developer.apple.com/forums/thread/746759) and raise "Upload tasks from NSData are \
            not supported in background sessions". The system transfers the file while the app is not running.
            """,
        before: """
            backgroundSession.uploadTask(with: request, from: body).resume()
            """,
        after: """
            try body.write(to: fileURL)
            backgroundSession.uploadTask(with: request, fromFile: fileURL).resume()
            """)

    public static let voipPushNotReported = Rule(
        id: "voip-push-not-reported", severity: .critical, title: "VoIP push not reported to CallKit",
        why: """
            Apple (PKPushRegistryDelegate): "On iOS 13.0 and later, incoming Voice over IP calls must be reported \
            when they are received and before this method finishes execution using the CallKit framework, or the \
            system will terminate your app. Repeatedly failing to report calls may prevent your app from receiving \
            any more incoming call notifications." Every path, including the one that fails to parse the payload, \
            must call `reportNewIncomingCall`. \
            (https://developer.apple.com/documentation/pushkit/pkpushregistrydelegate/pushregistry(_:didreceiveincomingpushwith:for:completion:))
            """,
        before: """
            guard let caller = payload.dictionaryPayload["caller"] as? String else { return completion() }
            provider.reportNewIncomingCall(with: uuid, update: update(caller)) { _ in completion() }
            """,
        after: """
            let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
            provider.reportNewIncomingCall(with: uuid, update: update(caller)) { _ in completion() }
            // end the call right away if it cannot be connected
            """)

    public static let registeredNeverSubmitted = Rule(
        id: "registered-never-submitted", severity: .high, title: "handler registered, request never submitted",
        why: """
            A launch handler runs only for a submitted request, and nothing in the sources submits a BGTaskRequest \
            with this identifier (a submit in a comment does not count), so the task never runs and the chain never \
            starts. Submit the first request at launch and the next one from the handler. \
            (https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:))
            """,
        before: """
            BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshID, using: nil) { task in … }
            // try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refreshID))
            """,
        after: """
            BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshID, using: nil) { task in … }
            try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refreshID))
            """)

    public static let handlerNotCompleted = Rule(
        id: "handler-not-completed", severity: .high, title: "task not completed on every path",
        why: """
            Apple: "Not calling setTaskCompleted(success:) before the time for the task expires may result in the \
            system killing your app." Every way out of the handler — early returns, failed casts, caught and \
            uncaught errors, closures that finish the work — must call it. \
            (https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:))
            """,
        before: """
            guard let data = try? loadPending() else { return }
            upload(data) { task.setTaskCompleted(success: true) }
            """,
        after: """
            guard let data = try? loadPending() else { task.setTaskCompleted(success: true); return }
            upload(data) { ok in task.setTaskCompleted(success: ok) }
            """)

    public static let handlerMissingExpirationHandler = Rule(
        id: "handler-missing-expiration-handler", severity: .high, title: "task handler sets no expirationHandler",
        why: """
            Apple: "Not setting an expiration handler results in the system marking your task as complete and \
            unsuccessful instead of sending a warning." The work is not cancelled when the time runs out and the run \
            is recorded as a failure. \
            (https://developer.apple.com/documentation/backgroundtasks/bgtask/expirationhandler)
            """,
        before: """
            let operation = RefreshOperation()
            operation.completionBlock = { task.setTaskCompleted(success: !operation.isCancelled) }
            queue.addOperation(operation)
            """,
        after: """
            let operation = RefreshOperation()
            task.expirationHandler = { operation.cancel() }
            operation.completionBlock = { task.setTaskCompleted(success: !operation.isCancelled) }
            queue.addOperation(operation)
            """)

    public static let silentPushCompletionNotCalled = Rule(
        id: "silent-push-completion-not-called", severity: .high, title: "silent push completion handler not called",
        why: """
            Apple: "You must call this handler and should do so as soon as possible." The app has about 30 seconds; \
            one that does not call the handler in time is terminated, and slow or missing calls earn fewer \
            background launches. Every path must call it; the `async` variant returns its result instead. \
            (https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didreceiveremotenotification:fetchcompletionhandler:))
            """,
        before: """
            guard let id = userInfo["id"] as? String else { return }
            sync(id) { completionHandler(.newData) }
            """,
        after: """
            guard let id = userInfo["id"] as? String else { completionHandler(.noData); return }
            sync(id) { completionHandler(.newData) }
            """)

    public static let unpairedBeginBackgroundTask = Rule(
        id: "unpaired-begin-background-task", severity: .high, title: "beginBackgroundTask without endBackgroundTask",
        why: """
            Apple: "Each call to this method must be balanced by a matching call to the endBackgroundTask(_:) \
            method", and of the expiration handler: "Use this handler to clean up and mark the end of the background \
            task. Failure to end the task explicitly will result in the termination of the app." End the task on \
            every path and in the expiration handler; keep the identifier, or it cannot be ended. \
            (https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(expirationhandler:))
            """,
        before: """
            let id = UIApplication.shared.beginBackgroundTask()
            guard let draft else { return }
            save(draft) { UIApplication.shared.endBackgroundTask(id) }
            """,
        after: """
            var id = UIBackgroundTaskIdentifier.invalid
            id = UIApplication.shared.beginBackgroundTask { UIApplication.shared.endBackgroundTask(id) }
            guard let draft else { UIApplication.shared.endBackgroundTask(id); return }
            save(draft) { UIApplication.shared.endBackgroundTask(id) }
            """)

    public static let identifierNotPermitted = Rule(
        id: "identifier-not-permitted", severity: .high, title: "identifier missing from Info.plist",
        why: """
            `register(forTaskWithIdentifier:using:launchHandler:)` "Returns false if the identifier isn't included \
            in the BGTaskSchedulerPermittedIdentifiers Info.plist": the handler is never installed and submitting a \
            request throws BGTaskScheduler.Error.Code.notPermitted, so the task never runs. (\(registerDocs))
            """,
        before: """
            <key>BGTaskSchedulerPermittedIdentifiers</key>
            <array><string>com.example.refresh</string></array>
            // code registers "com.example.cleanup"
            """,
        after: """
            <key>BGTaskSchedulerPermittedIdentifiers</key>
            <array><string>com.example.refresh</string><string>com.example.cleanup</string></array>
            """)

    public static let refreshRequestRequirements = Rule(
        id: "refresh-request-requirements", severity: .medium,
        title: "power or network requirement on a refresh request",
        why: """
            `requiresExternalPower` and `requiresNetworkConnectivity` belong to BGProcessingTaskRequest; an app \
            refresh request has neither. Set through `as? BGProcessingTaskRequest` they do nothing (the cast fails), \
            through `setValue(_:forKey:)` they raise NSUnknownKeyException, and written directly they do not \
            compile. Work that needs power or a network must be a processing request. \
            (https://developer.apple.com/documentation/backgroundtasks/bgprocessingtaskrequest)
            """,
        before: """
            let request = BGAppRefreshTaskRequest(identifier: retrainID)
            (request as? BGProcessingTaskRequest)?.requiresExternalPower = true
            """,
        after: """
            let request = BGProcessingTaskRequest(identifier: retrainID)
            request.requiresExternalPower = true
            """)

    public static let handlerNotRescheduling = Rule(
        id: "handler-not-rescheduling", severity: .medium, title: "handler does not schedule its next run",
        why: """
            A submitted request runs once. Apple's sample schedules the next refresh from inside the handler; a \
            handler that submits nothing (itself or through the functions it calls) runs once and the chain stops. \
            (https://developer.apple.com/documentation/uikit/using-background-tasks-to-update-your-app)
            """,
        before: """
            func handleAppRefresh(task: BGAppRefreshTask) {
                task.expirationHandler = { … }
                refresh { task.setTaskCompleted(success: $0) }
            }
            """,
        after: """
            func handleAppRefresh(task: BGAppRefreshTask) {
                scheduleAppRefresh()   // submits the next BGAppRefreshTaskRequest
                task.expirationHandler = { … }
                refresh { task.setTaskCompleted(success: $0) }
            }
            """)

    public static let permittedNeverRegistered = Rule(
        id: "permitted-never-registered", severity: .low, title: "permitted identifier never registered",
        why: """
            Apple: "Every identifier in the BGTaskSchedulerPermittedIdentifiers requires a handler." An identifier \
            that no code registers is stale configuration or a handler that was lost; submitting a request for it \
            crashes with "No launch handler registered for task with identifier". (\(registerDocs))
            """,
        before: """
            <array><string>com.example.refresh</string><string>com.example.legacy-sync</string></array>
            """,
        after: """
            <array><string>com.example.refresh</string></array>
            """)

    public static let chainNeverStarts = Rule(
        id: "chain-never-starts", severity: .high, title: "first request submitted only from its own handler",
        why: """
            A handler runs only after a request for its identifier has been submitted. When the only submit is \
            reached from inside the handler itself (its own rescheduling), no code outside it — launch, a scene or \
            app moving to the background, a user action — ever submits the first request, so the handler never \
            runs and the chain never starts. \
            (https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:))
            """,
        before: """
            BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshID, using: nil) { task in
                scheduleRefresh()   // the only call of scheduleRefresh()
                …
            }
            """,
        after: """
            BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshID, using: nil) { task in
                scheduleRefresh()
                …
            }
            func applicationDidEnterBackground(_ application: UIApplication) { scheduleRefresh() }
            """)

    public static let resubmitBlockedByFlag = Rule(
        id: "resubmit-blocked-by-flag", severity: .high, title: "submit skipped once a process-wide flag is set",
        why: """
            A submitted request runs once, so each run (or each move to the background) must submit the next one. \
            A flag that lives as long as the process — a global, a `static` property, a property of a singleton or \
            of the app delegate — that is set to true before the submit, tested before it to skip it, and never set \
            back to false lets the submit happen once per process. iOS keeps an app in memory between background \
            launches, so in such a warm process the handler runs once, its resubmit is skipped, and the chain stops \
            until the app is terminated. \
            (https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/submit(_:))
            """,
        before: """
            static var didSchedule = false
            func scheduleRefresh() {
                guard !Self.didSchedule else { return }
                Self.didSchedule = true
                try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refreshID))
            }
            """,
        after: """
            func scheduleRefresh() {
                // .replace semantics: submitting again replaces the pending request.
                try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: refreshID))
            }
            """)

    public static let taskCompletedTwice = Rule(
        id: "task-completed-twice", severity: .medium, title: "setTaskCompleted reached twice on one path",
        why: """
            A task is completed once: Apple: "Call setTaskCompleted(success:) … when you finish the work." A \
            second call on the same path reports a result for a task the system has already released, and the \
            first result (often a premature `true`) is the one that counts. Complete once, behind a flag or on \
            separate branches. \
            (https://developer.apple.com/documentation/backgroundtasks/bgtask/settaskcompleted(success:))
            """,
        before: """
            task.setTaskCompleted(success: true)
            save { ok in … }
            task.setTaskCompleted(success: ok)
            """,
        after: """
            save { ok in task.setTaskCompleted(success: ok) }
            """)

    public static let backgroundSessionWithoutDelegate = Rule(
        id: "background-session-without-delegate", severity: .high,
        title: "background URLSession without a delegate",
        why: """
            A background session reports progress, completion and the downloaded file only to its delegate; \
            completion handlers are not supported there. Made without a delegate (or with `nil`), its transfers \
            finish with nobody told, and a download's temporary file is deleted. Apple: "you must provide a \
            delegate" for background transfers. \
            (https://developer.apple.com/documentation/foundation/downloading-files-in-the-background)
            """,
        before: """
            let session = URLSession(configuration: .background(withIdentifier: "com.example.upload"))
            """,
        after: """
            let session = URLSession(configuration: .background(withIdentifier: "com.example.upload"),
                                     delegate: self, delegateQueue: nil)
            """)

    public static let backgroundEventsCompletionTooEarly = Rule(
        id: "background-events-completion-too-early", severity: .high,
        title: "background-session completion handler called too early",
        why: """
            Apple: in application(_:handleEventsForBackgroundURLSession:completionHandler:) "store that \
            completion handler", and call it from urlSessionDidFinishEvents(forBackgroundURLSession:), "when … all \
            messages previously enqueued for this session have been delivered". Calling it at once tells iOS the \
            app is done; it is suspended before the delegate has processed the finished transfers. \
            (https://developer.apple.com/documentation/foundation/urlsessiondelegate/urlsessiondidfinishevents(forbackgroundurlsession:))
            """,
        before: """
            func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                             completionHandler: @escaping () -> Void) {
                completionHandler()
            }
            """,
        after: """
            func application(_ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
                             completionHandler: @escaping () -> Void) {
                backgroundCompletionHandler = completionHandler
            }
            func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
                DispatchQueue.main.async { self.backgroundCompletionHandler?() }
            }
            """)

    public static let backgroundLocationModeMissing = Rule(
        id: "background-location-mode-missing", severity: .critical,
        title: "background location updates without the location background mode",
        why: """
            Setting allowsBackgroundLocationUpdates to true requires `location` in the app's UIBackgroundModes; \
            Apple: "If you set this property to true … you must add the UIBackgroundModes key … with the location \
            value", and Core Location raises an exception when it is missing, so the app crashes where the \
            property is set. \
            (https://developer.apple.com/documentation/corelocation/cllocationmanager/allowsbackgroundlocationupdates)
            """,
        before: """
            manager.allowsBackgroundLocationUpdates = true
            // Info.plist: UIBackgroundModes = [fetch]
            """,
        after: """
            manager.allowsBackgroundLocationUpdates = true
            // Info.plist: UIBackgroundModes = [fetch, location]
            """)
}
