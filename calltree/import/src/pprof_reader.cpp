// Reading pprof profiles (pprof.h). The top level of the Profile message is walked field by
// field with protobuf's CodedInputStream, and each nested message (Sample, Location, Function,
// ValueType, Mapping) is parsed on its own by the classes generated from profile.proto. Parsing
// the whole Profile as one message would hold a C++ object per sample (about 100 bytes for two
// bytes of input); walking it keeps memory at the input plus the tables plus the call tree.
//
// Two passes over the bytes, because the fields may come in any order (proto3 encoding): the
// first collects sample types, strings, functions and locations; the second adds each sample to
// the tree.

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/decompress.h"
#include "bn/calltree/frame_names.h"
#include "bn/calltree/pprof.h"
#include "bn/calltree/tree_builder.h"
#include "input_limits.h"
#include "pprof_fields.h"
#include "pprof_input.h"
#include "pprof_units.h"
#include "profile.pb.h"

namespace bn::calltree {
namespace {

namespace pb = perftools::profiles;

// kMaxNodesPerByte (input_limits.h): each sample type costs a column of the tree, so the bound
// counts nodes times sample types.

struct Location {
  std::uint32_t first = 0, count = 0;  // its frames in `frames_`, outermost first
};

class PprofParser {
 public:
  PprofParser(std::span<const char> bytes, std::string source, bool compressed, const ImportOptions& options)
      : input_(bytes, source, compressed), source_(std::move(source)), options_(options) {}

  CallTree parse(const std::string& file_name) && {
    input_.for_each_field([&](const pprof_input::Field& f) { collect(f); });
    resolve_functions();
    resolve_locations();
    value_index_ = choose_sample_type();
    declare_extra_metrics();
    max_nodes_ = std::max<std::uint64_t>(65536, kMaxNodesPerByte * input_.size() / (1 + extra_indices_.size()));
    input_.for_each_field([&](const pprof_input::Field& f) {
      if (f.number == kSample) add_sample(f);
    });
    return std::move(builder_).build(metadata(file_name));
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& what) const { input_.fail(offset, what); }

  template <class Message>
  void parse_message(const pprof_input::Field& f, Message& m, const char* what) {
    if (!f.length_delimited()) fail(f.offset, std::string(what) + " field has the wrong wire type");
    if (!m.ParseFromArray(f.body.data(), static_cast<int>(f.body.size())))
      fail(f.offset, std::string("malformed ") + what + " message");
  }

  std::int64_t scalar(const pprof_input::Field& f) const {
    if (f.wire_type != pprof_input::kVarint) fail(f.offset, "field " + std::to_string(f.number) + " is not a varint");
    return static_cast<std::int64_t>(f.value);
  }

  void collect(const pprof_input::Field& f) {
    switch (f.number) {
      case kSampleType:
        parse_message(f, value_type_, "ValueType");
        sample_types_.push_back({value_type_.type(), value_type_.unit(), f.offset});
        break;
      case kSample:
        if (!f.length_delimited()) fail(f.offset, "Sample field has the wrong wire type");
        ++sample_count_;
        break;
      case kLocation:
        collect_location(f);
        break;
      case kFunction:
        parse_message(f, function_, "Function");
        function_order_.push_back(function_.id());
        if (!functions_.emplace(function_.id(), Function{function_.name(), function_.system_name(), f.offset}).second)
          fail(f.offset, "function id " + std::to_string(function_.id()) + " is defined twice");
        break;
      case kStringTable:
        if (!f.length_delimited()) fail(f.offset, "string_table field has the wrong wire type");
        strings_.emplace_back(f.body.data(), f.body.size());
        break;
      case kTimeNanos:
        time_nanos_ = scalar(f);
        break;
      case kDurationNanos:
        duration_nanos_ = scalar(f);
        break;
      case kPeriodType:
        parse_message(f, value_type_, "ValueType");
        period_unit_ = {value_type_.unit(), f.offset};
        break;
      case kPeriod:
        period_ = scalar(f);
        break;
      case kDefaultSampleType:
        default_sample_type_ = {scalar(f), f.offset};
        break;
      default:  // mappings, drop/keep_frames, comments, fields of later versions of profile.proto
        break;
    }
  }

  void collect_location(const pprof_input::Field& f) {
    parse_message(f, location_, "Location");
    if (location_.id() == 0) fail(f.offset, "location id 0 (ids must be nonzero)");
    if (!location_index_.emplace(location_.id(), static_cast<std::uint32_t>(locations_.size())).second)
      fail(f.offset, "location id " + std::to_string(location_.id()) + " is defined twice");
    Location loc{static_cast<std::uint32_t>(location_functions_.size()), 0};
    // Lines list inlined functions first and their caller last (profile.proto, message
    // Location); the tree wants the outermost frame first.
    for (int i = location_.line_size(); i-- > 0;) location_functions_.push_back(location_.line(i).function_id());
    loc.count = static_cast<std::uint32_t>(location_.line_size());
    locations_.push_back(loc);
    location_offsets_.push_back({f.offset, location_.address()});
  }

  std::string_view string_at(std::int64_t index, std::size_t offset, const char* what) const {
    if (index < 0 || static_cast<std::uint64_t>(index) >= strings_.size())
      fail(offset, std::string(what) + " names string " + std::to_string(index) + ", but the string table has " +
                       std::to_string(strings_.size()) + " entries");
    return strings_[static_cast<std::size_t>(index)];
  }

  MethodId intern(std::string_view name) {
    return builder_.intern(options_.normalize ? normalize_frame(name, options_.keep_signatures) : std::string(name));
  }

  void resolve_functions() {
    // In file order, so that method ids do not depend on the hash map's order: a file read,
    // written and read again gives the same ids and the same output.
    for (const std::uint64_t id : function_order_) {
      Function& fn = functions_.at(id);
      std::string_view name = string_at(fn.name, fn.offset, "function");
      if (name.empty()) name = string_at(fn.system_name, fn.offset, "function");
      fn.method = intern(name.empty() ? "[unknown]" : name);
    }
  }

  // Replaces each location's function ids by the method ids of their functions.
  void resolve_locations() {
    std::vector<MethodId> methods;
    methods.reserve(location_functions_.size());
    for (std::size_t l = 0; l < locations_.size(); ++l) {
      Location& loc = locations_[l];
      const std::uint32_t first = static_cast<std::uint32_t>(methods.size());
      if (loc.count == 0) {
        // An unsymbolised location: its address is all there is (pprof prints it in hex too).
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(location_offsets_[l].address));
        methods.push_back(intern(hex));
      }
      for (std::uint32_t i = 0; i < loc.count; ++i) {
        const std::uint64_t fid = location_functions_[loc.first + i];
        const auto it = functions_.find(fid);
        if (it == functions_.end())
          fail(location_offsets_[l].offset,
               "location names function " + std::to_string(fid) + ", which the file does not define");
        methods.push_back(it->second.method);
      }
      loc = {first, static_cast<std::uint32_t>(methods.size()) - first};
    }
    location_methods_ = std::move(methods);
  }

  std::size_t choose_sample_type() {
    if (sample_types_.empty()) {
      if (sample_count_ > 0) fail(0, "samples but no sample_type");
      return 0;
    }
    const auto type_name = [&](const SampleType& t) { return string_at(t.type, t.offset, "sample_type"); };
    std::string wanted = options_.sample_type;
    if (wanted.empty() && default_sample_type_.index != 0)
      wanted = string_at(default_sample_type_.index, default_sample_type_.offset, "default_sample_type");
    if (wanted.empty()) return sample_types_.size() - 1;  // profile.proto: "default to the last"
    for (std::size_t i = 0; i < sample_types_.size(); ++i)
      if (type_name(sample_types_[i]) == wanted) return i;
    std::string known;
    for (const SampleType& t : sample_types_) known += (known.empty() ? "" : ", ") + std::string(type_name(t));
    throw Error(source_ + ": pprof: no sample type '" + wanted + "' (the file has " + known + ")");
  }

  // Every sample type but metric 0's is an extra metric, in file order. Names must tell metrics
  // apart: an empty or repeated type is named by its position ("value 3", "cpu (3)").
  void declare_extra_metrics() {
    if (sample_types_.size() > kMaxExtraMetrics + 1)
      fail(sample_types_[kMaxExtraMetrics + 1].offset, std::to_string(sample_types_.size()) +
                                                           " sample types, more than the " +
                                                           std::to_string(kMaxExtraMetrics + 1) + " supported");
    std::vector<std::string> taken;
    std::vector<MetricSpec> extra;
    for (std::size_t i = 0; i < sample_types_.size(); ++i) {
      const SampleType& t = sample_types_[i];
      const std::string type(string_at(t.type, t.offset, "sample_type"));
      std::string name = type.empty() ? "value " + std::to_string(i + 1) : type;
      if (std::find(taken.begin(), taken.end(), name) != taken.end()) name += " (" + std::to_string(i + 1) + ")";
      taken.push_back(name);
      if (i == value_index_) {
        metric_name_ = name;
        continue;
      }
      extra.push_back({name, pprof_units::unit_of(type, string_at(t.unit, t.offset, "sample_type"))});
      extra_indices_.push_back(i);
    }
    builder_.declare_extra_metrics(std::move(extra));
  }

  void add_sample(const pprof_input::Field& f) {
    parse_message(f, sample_, "Sample");
    if (static_cast<std::size_t>(sample_.value_size()) != sample_types_.size())
      fail(f.offset, "sample has " + std::to_string(sample_.value_size()) + " values for " +
                         std::to_string(sample_types_.size()) + " sample types");
    frames_.clear();
    if (options_.thread_frames) add_thread_frame(f.offset);
    for (int i = sample_.location_id_size(); i-- > 0;) {
      const auto it = location_index_.find(sample_.location_id(i));
      if (it == location_index_.end())
        fail(f.offset,
             "sample names location " + std::to_string(sample_.location_id(i)) + ", which the file does not define");
      const Location& loc = locations_[it->second];
      if (frames_.size() + loc.count > kMaxDepth)
        fail(f.offset, "stack deeper than " + std::to_string(kMaxDepth) + " frames");
      frames_.insert(frames_.end(), location_methods_.begin() + loc.first,
                     location_methods_.begin() + loc.first + loc.count);
    }
    try {
      const NodeId node =
          builder_.add_stack(frames_, sample_types_.empty() ? 0 : sample_.value(static_cast<int>(value_index_)));
      for (std::size_t k = 0; k < extra_indices_.size(); ++k)
        builder_.add_metric_cost(k + 1, node, sample_.value(static_cast<int>(extra_indices_[k])));
    } catch (const Error& e) {  // node-count or per-node cost overflow
      fail(f.offset, e.what());
    }
    if (builder_.node_count() > max_nodes_)
      fail(f.offset, "the samples expand to more than " + std::to_string(kMaxNodesPerByte) +
                         " call-tree nodes (times sample types) per input byte (a hostile file?)");
  }

  void add_thread_frame(std::size_t offset) {
    for (const pb::Label& label : sample_.label()) {
      if (label.str() == 0 || string_at(label.key(), offset, "label") != "thread") continue;
      const std::string_view name = string_at(label.str(), offset, "label");
      frames_.push_back(builder_.intern("[thread " + std::string(name) + "]"));
      return;
    }
  }

  Metadata metadata(const std::string& file_name) const {
    Metadata m;
    m.mode = "pprof";
    std::string types;
    for (std::size_t i = 0; i < sample_types_.size(); ++i) {
      const SampleType& t = sample_types_[i];
      const std::string_view type = string_at(t.type, t.offset, "sample_type");
      const std::string_view unit = string_at(t.unit, t.offset, "sample_type");
      types += (types.empty() ? "" : ", ") + std::string(type) + "/" + std::string(unit);
      if (i != value_index_) continue;
      m.metric = metric_name_;
      m.unit = pprof_units::unit_of(type, unit);
    }
    // A file without sample types (so without samples) still gives the tree its one metric; it is
    // named as an empty type at position 1 is, so writing it back and reading it again keeps it.
    if (sample_types_.empty()) m.metric = "value 1";
    m.start_time_unix_ns = time_nanos_;
    m.duration_ns = duration_nanos_;
    if (period_unit_.index != 0 && string_at(period_unit_.index, period_unit_.offset, "period_type") == "nanoseconds")
      m.sample_interval_ns = period_;
    m.set_extra("source", file_name);
    m.set_extra("sample_types", types);
    return m;
  }

  struct SampleType {
    std::int64_t type = 0, unit = 0;
    std::size_t offset = 0;
  };
  struct StringRef {
    std::int64_t index = 0;
    std::size_t offset = 0;
  };
  struct Function {
    std::int64_t name = 0, system_name = 0;
    std::size_t offset = 0;
    MethodId method = kNoMethod;
  };
  struct LocationSource {
    std::size_t offset = 0;
    std::uint64_t address = 0;
  };

  pprof_input::FieldWalker input_;
  std::string source_;
  ImportOptions options_;
  TreeBuilder builder_;

  std::vector<SampleType> sample_types_;
  std::vector<std::string_view> strings_;  // into the input
  std::unordered_map<std::uint64_t, Function> functions_;
  std::vector<std::uint64_t> function_order_;
  std::unordered_map<std::uint64_t, std::uint32_t> location_index_;
  std::vector<Location> locations_;
  std::vector<LocationSource> location_offsets_;
  std::vector<std::uint64_t> location_functions_;  // function ids, then replaced by:
  std::vector<MethodId> location_methods_;
  std::size_t sample_count_ = 0;
  std::int64_t time_nanos_ = 0, duration_nanos_ = 0, period_ = 0;
  StringRef period_unit_, default_sample_type_;
  std::size_t value_index_ = 0;
  std::string metric_name_;                 // metric 0's name
  std::vector<std::size_t> extra_indices_;  // the sample type of each extra metric
  std::uint64_t max_nodes_ = 0;

  // Reused for every message of their kind: parsing into a cleared message keeps its capacity.
  pb::ValueType value_type_;
  pb::Function function_;
  pb::Location location_;
  pb::Sample sample_;
  std::vector<MethodId> frames_;
};

CallTree read_all(std::span<const char> bytes, std::string source, bool compressed, const std::string& file_name,
                  const ImportOptions& options) {
  return PprofParser(bytes, std::move(source), compressed, options).parse(file_name);
}

}  // namespace

CallTree read_pprof(const std::filesystem::path& path, const ImportOptions& options) {
  DecompressingInput input = DecompressingInput::open_file(path, options.max_decompressed_bytes, options.progress);
  const std::vector<char> bytes = pprof_input::read_message(input);
  return read_all(bytes, path.string(), input.compression() != Compression::none, path.filename().string(), options);
}

CallTree read_pprof_bytes(std::span<const std::byte> bytes, std::string_view source_name,
                          const ImportOptions& options) {
  DecompressingInput input =
      DecompressingInput::from_bytes(bytes, std::string(source_name), options.max_decompressed_bytes);
  const std::vector<char> message = pprof_input::read_message(input);
  return read_all(message, std::string(source_name), input.compression() != Compression::none, std::string(source_name),
                  options);
}

}  // namespace bn::calltree
