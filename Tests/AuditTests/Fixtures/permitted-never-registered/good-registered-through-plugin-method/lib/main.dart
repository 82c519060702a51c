import 'package:workmanager/workmanager.dart';

void scheduleWork() {
  Workmanager().registerProcessingTask('com.example.cleanup', 'cleanup');
  Workmanager().registerPeriodicTask('com.example.refresh', 'refresh', frequency: const Duration(minutes: 20));
}
