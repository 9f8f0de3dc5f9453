#pragma once
// Whole files read into memory (scenario data, CSV sets, TLS certificates),
// and paths taken relative to a scenario's folder.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

// The largest file read whole (a scenario, a bundle, a CSV set, a certificate).
constexpr std::size_t kMaxWholeFile = 256u * 1024 * 1024;
// Reads `path` whole; false with `why` (the system's reason, or "larger than
// 256 MiB": /dev/zero is not read for ever) when it cannot.
bool readWholeFile(const std::string& path, std::string& out, std::string& why);
// A token (agents' Bearer token) from `path`: surrounding blanks and line ends
// (LF or CRLF) trimmed, the same on the controller and the agent; false with
// `why` when the file cannot be read, is empty, or the token holds a character
// a header value cannot carry.
bool readTokenFile(const std::string& path, std::string& token, std::string& why);
// The input among `inputs` that `output` would overwrite (the same file, by
// device and inode, whatever the spelling of the path), or nullptr.
const std::string* overwritesInput(const std::string& output, const std::vector<std::string>& inputs);
// Writes `data` to `path` through a temporary file in the same folder,
// flushed and renamed over it: a reader sees the old file or the new one,
// never half of one. False with `why`.
bool writeFileAtomically(const std::string& path, const std::string& data, std::string& why);

// Outputs: the one writer of every file a command writes (the summary, report
// exports, bundles, JSON lines). "-" (and /dev/stdout, /dev/stderr) is the
// process's own stream; a FIFO, a character device or anything else under
// /dev or /proc is written through, never replaced; a symbolic link is
// followed and its target replaced whole, the link kept; any other path is
// written whole through a temporary file renamed over it.
struct OutputPath
{
    enum class Kind
    {
        Fd,     // the process's standard output or error (`fd`)
        Stream, // written through: a FIFO or a device
        File    // replaced whole: `path` is the file after every link
    } kind = Kind::File;
    std::string path;
    int fd = -1;
};
// Where `path` is written; false with `why` when it cannot be (a folder that
// does not exist or is not writable, a folder, a socket): found before a run,
// not after it.
bool resolveOutput(const std::string& path, OutputPath& out, std::string& why);
bool writeOutput(const std::string& path, const std::string& data, std::string& why);
// `file` itself when absolute (or `baseDir` is empty), else baseDir/file.
std::string pathUnder(const std::string& baseDir, const std::string& file);
// The part of `path` after its last slash.
std::string_view fileBaseName(std::string_view path);
// The folder `path` is in: the part before its last slash, "." when it has none.
std::string folderOf(const std::string& path);
// A sent file's default Content-Type, by the filename's extension (the common
// types as Postman's lookup names them; application/octet-stream otherwise).
std::string contentTypeOfFilename(std::string_view filename);

} // namespace stampede
