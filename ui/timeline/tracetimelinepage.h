#pragma once

#include "analysis/analysisresults.h"
#include "model/steptime.h"

#include <QJsonObject>
#include <QWidget>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

class QComboBox;
class QToolButton;

namespace fusiondiff::ui {

class TimelinePanel;

// The Timeline tab: every kernel of each trace on its lane, from the trace's first kernel (a
// whole iteration and more), up to kMaxKernels a side, with the GPU's idle gaps shaded by cause.
// Built when the tab is first shown after new results (or first asked to show something): a
// trace of a million kernels takes a moment to sort. Other pages show things on it (an idle
// cause's gaps, a finding's kernels); its Back button (Alt+Left) returns to where the user was.
class TraceTimelinePage : public QWidget
{
    Q_OBJECT
public:
    static constexpr size_t kMaxKernels = 500000;

    explicit TraceTimelinePage(QWidget* parent = nullptr);

    void setResults(const AnalysisResults& results);
    TimelinePanel* timeline() const { return m_timeline; }
    // What a saved session keeps (as ResultsPage::saveState): the visible range ("start_us",
    // "end_us", from the lanes' starts) and the selected kernel by its side, start and name. Until
    // the timeline is built for the results, a restored state waits for it (and is what is saved).
    QJsonObject saveState() const;
    void restoreState(const QJsonObject& state);

    // Selects the idle gaps the report charges to one cause and host code (an entry of "where to
    // look first", a row of host_time), brings the largest into view and says how many there are
    // (a GPU gap once, however many pieces of it are charged: idlegapruns.h); returns that number. `what` names them
    // ("the GPU waits while the host runs forward").
    size_t showIdleGaps(IdleCause cause, const std::string& key, HostCodeKind kind, const QString& what);
    // Marks kernels given by their indices into each trace's kernels (a finding's first call, a
    // group pair), or, with `names`, every kernel of those names (a row of the Kernels tab), and
    // brings them into view; returns how many are marked.
    size_t showKernels(const std::array<std::vector<uint32_t>, 2>& traceKernels, const QString& what);
    size_t showKernelsNamed(const std::array<QString, 2>& names, const QString& what);
    // Marks the kernels of one collective (a "where to look first" entry): those whose name says
    // it (collectiveOfName), and where the traces run no other collective, the communication
    // kernels (`communication`, a type) whose name says none (RCCL's generic kernels).
    size_t showCollective(const std::string& collective, int communication, bool onlyCollective, const QString& what);

    // Draws step `step` (from 1) of A and of B from one time and brings them into view, saying so
    // above the lanes; 0 draws each lane from its own first kernel again. Returns the step aligned
    // (0 where the lanes do not both have it).
    int alignSteps(int step);
    QComboBox* stepAlignment() const { return m_align; }

    // The Back button: shown with `tip` (where it goes), hidden when `tip` is empty.
    void setBackTarget(const QString& tip);
    QToolButton* backButton() const { return m_back; }

signals:
    void backRequested();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void build();
    void applyState(const QJsonObject& state);
    void buildIfPending();
    size_t markLaneKernels(std::array<std::vector<int>, 2> kernels, const QString& what);

    AnalysisResults m_results;
    TimelinePanel* m_timeline;
    QToolButton* m_back;
    QComboBox* m_align; // "align step N of A with step N of B"
    bool m_pending = false;
    QJsonObject m_pendingState; // restored before the build
};

} // namespace fusiondiff::ui
