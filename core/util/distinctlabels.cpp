#include "util/distinctlabels.h"

#include <filesystem>
#include <system_error>
#include <vector>

namespace fusiondiff {

namespace {

// The folders above a file, nearest first, of its absolute, normalised path.
std::vector<std::string> foldersAbove(const std::string& path)
{
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(path, error);
    if (error)
        absolute = path;
    std::vector<std::string> folders;
    for (std::filesystem::path folder = absolute.lexically_normal().parent_path();
         folder.has_relative_path() && !folder.filename().empty(); folder = folder.parent_path())
        folders.push_back(folder.filename().string());
    return folders;
}

} // namespace

std::array<std::string, 2> distinctLabels(
    const std::array<std::string, 2>& labels, const std::array<std::string, 2>& paths)
{
    if (labels[0] != labels[1])
        return labels;
    const std::array<std::vector<std::string>, 2> folders { foldersAbove(paths[0]), foldersAbove(paths[1]) };
    for (size_t depth = 0; depth < folders[0].size() && depth < folders[1].size(); ++depth) {
        if (folders[0][depth] == folders[1][depth])
            continue;
        std::array<std::string, 2> distinct;
        for (size_t side = 0; side < 2; ++side) {
            const std::string between = depth == 0 ? "/" : depth == 1 ? "/" + folders[side][0] + "/" : "/\u2026/";
            distinct[side] = folders[side][depth] + between + labels[side];
        }
        return distinct;
    }
    return { "A: " + labels[0], "B: " + labels[1] };
}

} // namespace fusiondiff
