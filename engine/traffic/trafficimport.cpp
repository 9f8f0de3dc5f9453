#include "trafficimport.h"

#include "core/textfile.h"

#include <zlib.h>

#include <algorithm>
#include <sys/stat.h>

namespace stampede {

namespace {

class LineReader
{
public:
    LineReader(const LogFormat& format, TrafficImport& out) : m_format(format), m_out(out) {}
    void line(std::string_view text)
    {
        ++m_number;
        if (!text.empty() && text.back() == '\r')
            text.remove_suffix(1);
        if (text.find_first_not_of(" \t") == std::string_view::npos)
            return;
        ++m_out.lines;
        std::string why;
        if (m_format.parse(text, m_record, why)) {
            m_out.records.push_back(std::move(m_record));
            return;
        }
        ++m_out.bad;
        if (m_out.problems.size() < TrafficImport::kMaxProblems)
            m_out.problems.push_back({m_number, why, std::string(text.substr(0, 200))});
    }

private:
    const LogFormat& m_format;
    TrafficImport& m_out;
    TrafficRecord m_record;
    std::uint64_t m_number = 0;
};

void inTimeOrder(TrafficImport& out)
{
    if (!std::is_sorted(out.records.begin(), out.records.end(),
                        [](const TrafficRecord& a, const TrafficRecord& b) { return a.atNanos < b.atNanos; }))
        std::stable_sort(out.records.begin(), out.records.end(),
                         [](const TrafficRecord& a, const TrafficRecord& b) { return a.atNanos < b.atNanos; });
}

} // namespace

void importLogText(std::string_view text, const LogFormat& format, TrafficImport& out)
{
    LineReader reader(format, out);
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        reader.line(text.substr(0, nl));
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    }
    inTimeOrder(out);
}

bool importLog(const std::string& path, const LogFormat& format, TrafficImport& out, std::string& error,
               const ImportProgress& progress)
{
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        error = "cannot read \"" + path + "\": no such file";
        return false;
    }
    gzFile in = gzopen(path.c_str(), "rb"); // reads plain files as they are
    if (!in) {
        error = "cannot read \"" + path + "\"";
        return false;
    }
    gzbuffer(in, 1 << 18);
    LineReader reader(format, out);
    std::string carry;
    std::vector<char> buf(1 << 20);
    const double size = double(std::max<off_t>(st.st_size, 1));
    int n = 0;
    while ((n = gzread(in, buf.data(), unsigned(buf.size()))) > 0) {
        std::string_view chunk(buf.data(), std::size_t(n));
        for (std::size_t nl; (nl = chunk.find('\n')) != std::string_view::npos;) {
            if (carry.empty()) {
                reader.line(chunk.substr(0, nl));
            } else {
                carry.append(chunk.substr(0, nl));
                reader.line(carry);
                carry.clear();
            }
            chunk.remove_prefix(nl + 1);
        }
        carry.append(chunk);
        if (progress && !progress(std::min(1.0, double(gzoffset(in)) / size))) {
            out.cancelled = true;
            break;
        }
    }
    int code = Z_OK;
    const char* why = n < 0 ? gzerror(in, &code) : nullptr;
    if (!carry.empty() && !out.cancelled)
        reader.line(carry);
    gzclose(in);
    if (n < 0) {
        error = "\"" + path + "\" cannot be read to its end: " + (why ? why : "read error");
        return false;
    }
    inTimeOrder(out);
    return true;
}

bool importHar(const std::string& path, TrafficImport& out, std::string& error)
{
    std::string text;
    if (!readWholeFile(path, text, error)) {
        error = "cannot read \"" + path + "\": " + error;
        return false;
    }
    HarRead har;
    if (!readHar(text, har, error))
        return false;
    out.records = std::move(har.records);
    out.lines = har.entries;
    out.bad = har.bad;
    out.problems = std::move(har.problems);
    return true;
}

} // namespace stampede
