package mail;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

// Renders a message body: a generated text, encoded and signed. Deliberately CPU-heavy.
final class Formatter {
  static String render(Message m) {
    StringBuilder text = new StringBuilder();
    for (int line = 0; line < 200; line++)
      text.append("Dear ").append(m.recipient).append(", line ").append(line).append(" of message ").append(m.id)
          .append('\n');
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    return Base64.getEncoder().encodeToString(bytes) + "\n" + sign(bytes);
  }

  private static String sign(byte[] bytes) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] hash = bytes;
      for (int round = 0; round < 20; round++) hash = digest.digest(hash);
      return Base64.getEncoder().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private Formatter() {}
}
