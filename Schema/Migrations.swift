public enum Embedded {}
