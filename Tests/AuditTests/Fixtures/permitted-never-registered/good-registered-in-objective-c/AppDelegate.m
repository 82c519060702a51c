// The app delegate is Objective-C: it registers the sync task, which the Swift code schedules.
#import <BackgroundTasks/BackgroundTasks.h>
#import "AppDelegate.h"
#import "App-Swift.h"

@implementation AppDelegate

- (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)launchOptions {
    [[BGTaskScheduler sharedScheduler] registerForTaskWithIdentifier:@"com.example.maps.sync-updates"
                                                          usingQueue:nil
                                                       launchHandler:^(BGTask *task) {
        [UpdateChecker.shared runWithTask:task];
    }];
    return YES;
}

@end
