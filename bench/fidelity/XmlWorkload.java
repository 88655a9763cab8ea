import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

// A second real workload for the fidelity benchmark: the JDK's XML stack (the Xerces parser
// building a DOM, an XPath query, the XSLT serializer writing the document back), again and
// again on one thread, "worker", for SECONDS, on a generated document of 2000 orders held in
// memory. Its self time is less spread out than javac's, so the same number of samples
// measures the profilers' difference with less sampling noise. With rounds=N instead of SECONDS
// it does N rounds, a fixed amount of work (bench/calltree measures slowdowns with it).
//
//   java XmlWorkload SECONDS|rounds=N
public class XmlWorkload {
  public static void main(String[] args) throws Exception {
    final boolean byRounds = args[0].startsWith("rounds=");
    final long limit = Long.parseLong(byRounds ? args[0].substring("rounds=".length()) : args[0]);
    StringBuilder s = new StringBuilder("<orders>");
    for (int i = 0; i < 2000; i++) {
      s.append("<order id=\"").append(i).append("\" customer=\"c").append(i % 97).append("\">");
      s.append("<item sku=\"s").append(i % 31).append("\" qty=\"").append(i % 7 + 1).append("\">Item &amp; name ");
      s.append(i).append("</item><note>").append("lorem ipsum dolor sit amet ".repeat(i % 5 + 1));
      s.append("</note></order>");
    }
    byte[] xml = s.append("</orders>").toString().getBytes("UTF-8");
    Thread worker = new Thread(() -> {
      try {
        DocumentBuilderFactory parsers = DocumentBuilderFactory.newInstance();
        TransformerFactory serializers = TransformerFactory.newInstance();
        XPath xpath = XPathFactory.newInstance().newXPath();
        long end = System.nanoTime() + (byRounds ? 0 : limit * 1_000_000_000L);
        long found = 0;
        for (long round = 0; byRounds ? round < limit : System.nanoTime() < end; round++) {
          Document d = parsers.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
          found += ((NodeList) xpath.evaluate("//order[@customer='c5']/item", d, XPathConstants.NODESET)).getLength();
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          serializers.newTransformer().transform(new DOMSource(d), new StreamResult(out));
          found += out.size();
        }
        System.out.println(found);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    }, "worker");
    worker.start();
    worker.join();
  }
}
