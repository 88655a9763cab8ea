#!/usr/bin/env bash
# Writes the Xalan workload's input into DIR: ORDERS orders over 60 cities (default 20000) and a
# report that sums and counts each city's orders by a predicate over every order, the
# quadratic-looking stylesheet a user would write. Debian's Xalan (libxalan2-java) is loaded
# by the application class loader, so the call-tree mode's defaults instrument it, where
# bench/fidelity's XmlWorkload runs the JDK's own javax.xml, which they leave alone.
#
#   bench/calltree/xalan_input.sh DIR [ORDERS]
#   java -cp /usr/share/java/xalan2.jar:/usr/share/java/serializer.jar:/usr/share/java/xercesImpl.jar \
#     org.apache.xalan.xslt.Process -IN DIR/orders.xml -XSL DIR/report.xsl -OUT /dev/null
set -euo pipefail
dir=${1:?usage: xalan_input.sh DIR [ORDERS]}
orders=${2:-20000}
mkdir -p "$dir"
awk -v n="$orders" 'BEGIN {
  print "<orders>"
  for (i = 0; i < n; i++) printf "<order id=\"%d\" city=\"City%d\" amount=\"%d\"/>\n", i, (i * 7919) % 60, (i * 104729) % 1000
  print "</orders>"
}' >"$dir/orders.xml"
cat >"$dir/report.xsl" <<'XSL'
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text"/>
<xsl:key name="k" match="order" use="@city"/>
<xsl:template match="/">
  <xsl:for-each select="orders/order[generate-id() = generate-id(key('k', @city)[1])]">
    <xsl:variable name="c" select="@city"/>
    <xsl:value-of select="$c"/>: <xsl:value-of select="sum(/orders/order[@city=$c]/@amount)"/> (<xsl:value-of select="count(/orders/order[@city=$c])"/>)<xsl:text>&#10;</xsl:text>
  </xsl:for-each>
</xsl:template>
</xsl:stylesheet>
XSL
