#include "outputcheck.h"

#include "util/inputerror.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

namespace fusiondiff::cli {

namespace {

namespace fs = std::filesystem;

// Absolute, without "." or "..", and without a trailing separator ("out/" is "out").
fs::path normalized(const fs::path& path)
{
    std::error_code error;
    const fs::path absolute = fs::absolute(path, error);
    fs::path normal = (error ? path : absolute).lexically_normal();
    if (!normal.has_filename() && normal != normal.root_path())
        normal = normal.parent_path();
    return normal;
}

// The folder a file named by `path` goes into.
fs::path folderOf(const fs::path& path)
{
    const fs::path parent = path.parent_path();
    return parent.empty() ? fs::path(".") : parent;
}

// Empty if files can be made in `folder`, else why not.
std::string whyNotWritable(const fs::path& folder)
{
    std::error_code error;
    const fs::file_status status = fs::status(folder, error);
    if (!fs::exists(status))
        return std::strerror(ENOENT);
    if (!fs::is_directory(status))
        return std::strerror(ENOTDIR);
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        return std::strerror(errno);
    return {};
}

void checkCsvFolder(const std::string& folder)
{
    std::error_code error;
    const fs::file_status status = fs::status(folder, error);
    if (fs::is_directory(status)) {
        if (const std::string why = whyNotWritable(folder); !why.empty())
            throw InputError(folder, "cannot write the CSV tables into the directory: " + why);
        return;
    }
    const auto fail
        = [&](const std::string& why) { throw InputError(folder, "cannot create the output directory: " + why); };
    if (fs::exists(status))
        fail(std::strerror(ENOTDIR));
    // create_directories makes every missing folder down from the nearest one that exists.
    fs::path existing = normalized(folder);
    while (existing.has_relative_path() && !fs::exists(fs::status(existing, error)))
        existing = existing.parent_path();
    if (const std::string why = whyNotWritable(existing); !why.empty())
        fail(why);
}

void checkOutputFile(const std::string& path, const std::optional<std::string>& csvFolder)
{
    if (path == "-")
        return;
    const auto fail = [&](const std::string& why) { throw InputError(path, "cannot write the output file: " + why); };
    std::error_code error;
    if (fs::is_directory(fs::status(path, error)))
        fail(std::strerror(EISDIR));
    const fs::path folder = folderOf(path);
    if (csvFolder && normalized(folder) == normalized(*csvFolder))
        return; // checked as the CSV folder, and made before any file is written
    if (const std::string why = whyNotWritable(folder); !why.empty())
        fail(why);
}

} // namespace

void checkOutputDestinations(const CompareArguments& arguments)
{
    if (arguments.csvDirectory)
        checkCsvFolder(*arguments.csvDirectory);
    if (arguments.jsonPath)
        checkOutputFile(*arguments.jsonPath, arguments.csvDirectory);
    if (arguments.markdownPath)
        checkOutputFile(*arguments.markdownPath, arguments.csvDirectory);
}

} // namespace fusiondiff::cli
