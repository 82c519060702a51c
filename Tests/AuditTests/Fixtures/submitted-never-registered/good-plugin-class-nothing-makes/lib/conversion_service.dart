import 'package:flutter/services.dart';

class ConversionService {
  ConversionService._();
  static const _channel = MethodChannel('convert/background');
  static Future<void> start() => _channel.invokeMethod('start');
}
