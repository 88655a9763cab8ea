package mail;

// A mail client in the spirit of seed 000's e-mail case study (sec. 4 and 6.1): one Composer
// thread creates messages and puts them in a Mailbox; Sender threads take them out and
// transmit them. The composer renders each message's body while holding the mailbox's monitor,
// so the senders, which only need a moment inside it, wait to enter it: their Thread View shows
// the time as :MONITOR, held by the Composer, inside Formatter.render.
//
//   java -cp classes mail.Mailroom [SECONDS] [SENDERS]
public final class Mailroom {
  public static void main(String[] args) throws InterruptedException {
    final long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
    final int senders = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    final Mailbox mailbox = new Mailbox();
    final Composer composer = new Composer(mailbox);
    final Sender[] workers = new Sender[senders];
    for (int i = 0; i < senders; i++) workers[i] = new Sender(mailbox, i);
    composer.start();
    for (Sender s : workers) s.start();
    Thread.sleep(seconds * 1000);
    composer.finish();
    for (Sender s : workers) s.finish();
    composer.join();
    long sent = 0;
    for (Sender s : workers) {
      s.join();
      sent += s.sent();
    }
    System.out.println("composed " + composer.composed() + ", sent " + sent);
  }

  private Mailroom() {}
}
