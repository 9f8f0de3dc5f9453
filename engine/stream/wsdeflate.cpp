#include "wsdeflate.h"

#include "core/text.h"

#include <zlib.h>

#include <cstdlib>

namespace stampede {

std::string wsDeflateAnswer(std::string_view value, bool& agreed)
{
    agreed = false;
    value = trimSpaces(value);
    if (value.empty())
        return {};
    if (value.find(',') != std::string_view::npos)
        return "the server named more than one extension (\"" + std::string(value.substr(0, 120)) +
               "\"); only permessage-deflate was offered";
    std::size_t semi = value.find(';');
    if (!equalsNoCase(trimSpaces(value.substr(0, semi)), "permessage-deflate"))
        return "the server named the extension \"" + std::string(value.substr(0, 120)) + "\", which was not offered";
    bool seen[3] = {};
    while (semi != std::string_view::npos) {
        value.remove_prefix(semi + 1);
        semi = value.find(';');
        const std::string_view param = trimSpaces(value.substr(0, semi));
        const std::size_t eq = param.find('=');
        const std::string_view name = trimSpaces(param.substr(0, eq));
        std::string_view arg = eq == std::string_view::npos ? std::string_view() : trimSpaces(param.substr(eq + 1));
        if (arg.size() >= 2 && arg.front() == '"' && arg.back() == '"')
            arg = arg.substr(1, arg.size() - 2);
        int which = equalsNoCase(name, "server_no_context_takeover")   ? 0
                    : equalsNoCase(name, "client_no_context_takeover") ? 1
                    : equalsNoCase(name, "server_max_window_bits")     ? 2
                                                                       : -1;
        if (which < 0)
            return "permessage-deflate with the parameter \"" + std::string(name.substr(0, 60)) +
                   "\", which was not offered";
        if (seen[which])
            return "permessage-deflate names \"" + std::string(name) + "\" twice";
        seen[which] = true;
        if (which < 2 && eq != std::string_view::npos)
            return "permessage-deflate's " + std::string(name) + " takes no value";
        if (which == 2) {
            const bool digits = !arg.empty() && arg.size() <= 2 && arg.find_first_not_of("0123456789") == arg.npos;
            const int bits = digits ? std::atoi(std::string(arg).c_str()) : 0;
            if (bits < 8 || bits > 15 || arg.front() == '0')
                return "permessage-deflate's server_max_window_bits is \"" + std::string(arg.substr(0, 20)) +
                       "\" (8 to 15)";
        }
    }
    agreed = true;
    return {};
}

struct WsDeflate::Streams
{
    z_stream in{}, out{};
    bool inReady = false, outReady = false;
    ~Streams()
    {
        if (inReady)
            inflateEnd(&in);
        if (outReady)
            deflateEnd(&out);
    }
};

WsDeflate::WsDeflate() : m_z(std::make_unique<Streams>()) {}
WsDeflate::~WsDeflate() = default;

void WsDeflate::compress(std::string_view payload, std::string& out)
{
    out.clear();
    z_stream& z = m_z->out;
    if (!m_z->outReady) {
        // level 1: a load generator's CPU is the scarce thing; a raw stream with a 15-bit window
        if (deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
            std::abort();
        m_z->outReady = true;
    } else {
        deflateReset(&z); // each message on its own (client_no_context_takeover or not)
    }
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(payload.data()));
    z.avail_in = uInt(payload.size());
    char buffer[16 * 1024];
    do {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        deflate(&z, Z_SYNC_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
    } while (z.avail_out == 0);
    // a sync flush ends with 00 00 FF FF: the RFC leaves it out of the message
    if (out.size() >= 4 && out.compare(out.size() - 4, 4, std::string_view("\0\0\xff\xff", 4)) == 0)
        out.resize(out.size() - 4);
}

int WsDeflate::expand(std::string_view payload, std::string& out, std::size_t limit, std::string& why)
{
    out.clear();
    z_stream& z = m_z->in;
    if (!m_z->inReady) {
        if (inflateInit2(&z, -15) != Z_OK)
            std::abort();
        m_z->inReady = true;
    }
    static const char kTail[4] = {0, 0, char(0xff), char(0xff)};
    char buffer[16 * 1024];
    for (int part = 0; part < 2; ++part) {
        const std::string_view input = part == 0 ? payload : std::string_view(kTail, 4);
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
        z.avail_in = uInt(input.size());
        do {
            z.next_out = reinterpret_cast<Bytef*>(buffer);
            z.avail_out = sizeof buffer;
            const int rc = inflate(&z, Z_SYNC_FLUSH);
            if (rc != Z_OK && rc != Z_BUF_ERROR && rc != Z_STREAM_END) {
                why = std::string("a compressed message that does not expand (") + (z.msg ? z.msg : "zlib") + ")";
                inflateReset(&z);
                return 1007;
            }
            const std::size_t got = sizeof buffer - z.avail_out;
            if (out.size() + got > limit) {
                why = "a compressed message that expands past " + std::to_string(limit) + " bytes";
                inflateReset(&z);
                return 1009;
            }
            out.append(buffer, got);
            if (rc == Z_BUF_ERROR && got == 0)
                break;                // no progress: all of the input is in
            if (rc == Z_STREAM_END) { // a final block: the next message starts a stream afresh
                inflateReset(&z);
                break;
            }
        } while (z.avail_out == 0 || z.avail_in > 0);
    }
    return 0;
}

} // namespace stampede
