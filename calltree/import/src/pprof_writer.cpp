// Writing pprof profiles (pprof.h). The Profile is streamed field by field: each nested message
// is built, sized and serialised on its own, so a tree of millions of nodes never exists as one
// C++ Profile object (a Sample holds its whole stack, so that object would be tens of times the
// tree).

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/wire_format_lite.h>

#include <limits>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/pprof.h"
#include "pprof_fields.h"
#include "pprof_units.h"
#include "profile.pb.h"

namespace bn::calltree {
namespace {

namespace pb = perftools::profiles;
using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedOutputStream;

class OstreamSink : public google::protobuf::io::CopyingOutputStream {
 public:
  explicit OstreamSink(std::ostream& out) : out_(out) {}
  bool Write(const void* buffer, int size) override {
    out_.write(static_cast<const char*>(buffer), size);
    return static_cast<bool>(out_);
  }

 private:
  std::ostream& out_;
};

class ProfileWriter {
 public:
  ProfileWriter(const CallTree& tree, CodedOutputStream& out) : tree_(tree), out_(out) {}

  void write() {
    // String ids: 0 is "" (profile.proto requires it), method m is m + 1, then the type and unit
    // of each metric (metric k: methods + 1 + 2k and methods + 2 + 2k), then "nanoseconds".
    const auto methods = static_cast<std::int64_t>(tree_.method_count());
    const auto metrics = static_cast<std::int64_t>(tree_.metric_count());
    const Metadata& md = tree_.metadata();
    for (std::int64_t k = 0; k < metrics; ++k) {
      pb::ValueType type;
      type.set_type(methods + 1 + 2 * k);
      type.set_unit(methods + 2 + 2 * k);
      message(kSampleType, type);
    }
    // Every metric is a sample type; metric 0 stays the default (pprof's would be the last).
    if (metrics > 1) varint(kDefaultSampleType, methods + 1);
    write_samples();
    write_methods();
    write_string("");
    for (MethodId m = 0; m < tree_.method_count(); ++m) write_string(tree_.method_name(m));
    for (std::size_t k = 0; k < tree_.metric_count(); ++k) {
      const MetricSpec spec = tree_.metric_spec(k);
      const pprof_units::ValueName value = pprof_units::to_pprof(spec.name, spec.unit);
      write_string(value.type);
      write_string(value.unit);
    }
    if (md.start_time_unix_ns != 0) varint(kTimeNanos, md.start_time_unix_ns);
    if (md.duration_ns != 0) varint(kDurationNanos, md.duration_ns);
    if (md.sample_interval_ns > 0) {
      write_string("nanoseconds");
      pb::ValueType period;
      period.set_type(methods + 1);
      period.set_unit(methods + 1 + 2 * metrics);
      message(kPeriodType, period);
      varint(kPeriod, md.sample_interval_ns);
    }
  }

 private:
  void message(int field, const google::protobuf::MessageLite& m) {
    out_.WriteTag(WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
    out_.WriteVarint32(static_cast<std::uint32_t>(m.ByteSizeLong()));
    m.SerializeWithCachedSizes(&out_);
  }
  void varint(int field, std::int64_t v) {
    out_.WriteTag(WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_VARINT));
    out_.WriteVarint64(static_cast<std::uint64_t>(v));
  }
  void write_string(std::string_view s) {
    out_.WriteTag(WireFormatLite::MakeTag(kStringTable, WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
    out_.WriteVarint32(static_cast<std::uint32_t>(s.size()));
    out_.WriteRaw(s.data(), static_cast<int>(s.size()));
  }

  // One Sample per node with a cost under any metric, and per leaf even at cost 0, so that
  // reading the file back gives the same nodes; in preorder, as the tree is stored.
  void write_samples() {
    pb::Sample sample;
    std::vector<std::uint64_t> path;  // location ids from the outermost frame down
    for (NodeId n = 0; n < tree_.node_count(); ++n) {
      if (n != kRootNode) {
        path.resize(tree_.depth(n) - 1);
        path.push_back(std::uint64_t{tree_.method(n)} + 1);
      }
      bool zero = true;
      for (std::size_t k = 0; k < tree_.metric_count(); ++k) zero = zero && tree_.metric_cost(k, n) == 0;
      if (zero && (n == kRootNode || !tree_.is_leaf(n))) continue;
      sample.Clear();
      for (auto it = path.rbegin(); it != path.rend(); ++it) sample.add_location_id(*it);  // leaf first
      for (std::size_t k = 0; k < tree_.metric_count(); ++k) sample.add_value(tree_.metric_cost(k, n));
      message(kSample, sample);
    }
  }

  // Location and Function m + 1 for method m: the tree knows names, not addresses or lines.
  void write_methods() {
    pb::Location location;
    pb::Function function;
    for (MethodId m = 0; m < tree_.method_count(); ++m) {
      const std::uint64_t id = std::uint64_t{m} + 1;
      location.Clear();
      location.set_id(id);
      location.add_line()->set_function_id(id);
      message(kLocation, location);
      function.Clear();
      function.set_id(id);
      function.set_name(static_cast<std::int64_t>(id));
      message(kFunction, function);
    }
  }

  const CallTree& tree_;
  CodedOutputStream& out_;
};

}  // namespace

void write_pprof(const CallTree& tree, std::ostream& out) {
  OstreamSink sink(out);
  std::uint64_t bytes = 0;
  bool failed = false;
  {
    google::protobuf::io::CopyingOutputStreamAdaptor adaptor(&sink);
    {
      CodedOutputStream coded(&adaptor);
      ProfileWriter(tree, coded).write();
      bytes = static_cast<std::uint64_t>(coded.ByteCount());
      failed = coded.HadError();
    }
    failed = !adaptor.Flush() || failed;
  }
  if (failed || !out) throw Error("cannot write pprof: the output stream failed");
  // protobuf readers (pprof's own included) refuse messages of 2 GiB or more.
  if (bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw Error("cannot write pprof: the profile takes " + std::to_string(bytes) +
                " bytes, more than a protobuf message may hold (2 GiB)");
}

}  // namespace bn::calltree
