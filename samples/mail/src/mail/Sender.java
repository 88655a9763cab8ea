package mail;

// Takes messages from the mailbox and transmits them, one at a time.
final class Sender extends Thread {
  private final Mailbox mailbox;
  private volatile boolean running = true;
  private long sent;

  Sender(Mailbox mailbox, int number) {
    super("sender-" + number);
    this.mailbox = mailbox;
  }

  @Override
  public void run() {
    try {
      while (running) {
        Message m = mailbox.take(50);
        if (m != null) transmit(m);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // Stands in for the SMTP exchange: a little work per message.
  private void transmit(Message m) {
    int checksum = 0;
    for (int i = 0; i < m.body.length(); i += 16) checksum = 31 * checksum + m.body.charAt(i);
    if (checksum == 42) System.out.print("");
    sent++;
  }

  void finish() {
    running = false;
  }

  long sent() {
    return sent;
  }
}
