package mail;

// Creates messages as fast as it can and puts them in the mailbox.
final class Composer extends Thread {
  private final Mailbox mailbox;
  private volatile boolean running = true;
  private long composed;

  Composer(Mailbox mailbox) {
    super("composer");
    this.mailbox = mailbox;
  }

  @Override
  public void run() {
    while (running) {
      mailbox.put(new Message(composed, "user" + (composed % 97) + "@example.org"));
      composed++;
    }
  }

  void finish() {
    running = false;
  }

  long composed() {
    return composed;
  }
}
