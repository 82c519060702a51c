import 'package:workmanager/workmanager.dart';

void startSync() {
  Workmanager().registerPeriodicTask('1', 'fetchData', frequency: const Duration(minutes: 15));
}
