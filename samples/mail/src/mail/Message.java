package mail;

final class Message {
  final long id;
  final String recipient;
  String body;

  Message(long id, String recipient) {
    this.id = id;
    this.recipient = recipient;
  }
}
