import Foundation
import InlineSnapshotTesting
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion

/// For diagnostics whose fix-its `assertMacro` cannot apply: swift-macro-testing 0.7.0 stops the
/// test process on a `FixIt.Change.replaceText` (swift-syntax 602 and later), which most of
/// `@Model`'s fix-its are. This records the same things inline: the source with each diagnostic
/// under the line it points at, then, for each fix-it on its own, its message and the fixed source.
func assertDiagnostics(
    _ macros: [String: MacroSpec],
    of source: () -> String,
    diagnostics expected: (() -> String)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    function: StaticString = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    let tree = Parser.parse(source: source())
    let context = BasicMacroExpansionContext(
        sourceFiles: [tree: .init(moduleName: "TestModule", fullFilePath: "test.swift")])
    _ = tree.expand(
        macroSpecs: macros,
        contextGenerator: {
            BasicMacroExpansionContext(sharingWith: context, lexicalContext: $0.allMacroLexicalContexts())
        },
        indentationWidth: .spaces(4))

    // A macro sees a detached copy of its declaration; this maps its positions back to the source.
    func offset(_ position: AbsolutePosition, in node: some SyntaxProtocol) -> Int {
        context.location(for: position, anchoredAt: Syntax(node), fileName: "test.swift").offset
    }
    let located = context.diagnostics.map {
        Diagnostic(
            node: tree, position: AbsolutePosition(utf8Offset: offset($0.position, in: $0.node)),
            message: $0.diagMessage, highlights: [])
    }
    var report = [DiagnosticsFormatter.annotatedSource(tree: tree, diags: located, contextSize: 100)]
    for fixIt in context.diagnostics.flatMap(\.fixIts) {
        var text = Array(tree.description.utf8)
        let edits = fixIt.changes.map { change -> (range: Range<Int>, replacement: String) in
            switch change {
            case .replace(let old, let new):
                return (offset(old.position, in: old)..<offset(old.endPosition, in: old), new.description)
            case .replaceText(let range, let new, let node):
                return (offset(range.lowerBound, in: node)..<offset(range.upperBound, in: node), new)
            default:
                return (0..<0, "<unsupported change \(change)>")
            }
        }
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            text.replaceSubrange(edit.range, with: Array(edit.replacement.utf8))
        }
        report.append("✏️ \(fixIt.message.message)\n\(String(decoding: text, as: UTF8.self))")
    }
    assertInlineSnapshot(
        of: report.map { $0.trimmingCharacters(in: .newlines) }.joined(separator: "\n\n"),
        as: .lines,
        message: "Diagnostics or fixed source (+) differed from expected output (−). Difference: …",
        syntaxDescriptor: InlineSnapshotSyntaxDescriptor(trailingClosureLabel: "diagnostics", trailingClosureOffset: 1),
        matches: expected,
        fileID: fileID, file: filePath, function: function, line: line, column: column)
}
