import 'package:workmanager/workmanager.dart';

void startSync() {
  Workmanager().registerPeriodicTask('com.example.refresh', 'fetchData', frequency: const Duration(minutes: 15));
}
