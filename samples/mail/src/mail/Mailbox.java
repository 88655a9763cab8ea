package mail;

import java.util.ArrayDeque;

// The queue between the composer and the senders. put() renders the message while it holds the
// monitor: the bottleneck the walkthrough finds (samples/mail/README.md).
final class Mailbox {
  private final ArrayDeque<Message> queue = new ArrayDeque<>();

  synchronized void put(Message m) {
    m.body = Formatter.render(m);  // too much work inside the critical section
    queue.addLast(m);
    notifyAll();
  }

  synchronized Message take(long timeoutMillis) throws InterruptedException {
    if (queue.isEmpty()) wait(timeoutMillis);
    return queue.pollFirst();
  }
}
