#!/usr/bin/env python3
"""Generates a roster of N submissions from the course's own code, for measuring roster grading:
copies of the solutions, copies of the starters, and students whose labs are each drawn from the
solution, the starter, the known-wrong variants and the correct variants (a variant file holds only
the regions that differ; the others are taken from the solution, as the build does).

    make-roster.py SOURCE_DIR OUT_DIR N [--seed S]

Writes OUT_DIR/<student>/NN-name/<source>.cu and OUT_DIR/expected.json: for each student and lab,
where the lab came from (solution, starter, wrong:<name>:<class>, correct:<name>)."""
import argparse, json, os, random, re, shutil, sys

BEGIN = re.compile(r'^\s*// BEGIN STUDENT REGION (\S+)\s*$')
END = re.compile(r'^\s*// END STUDENT REGION\s*$')


def regions(text):
    out, name, body = {}, None, []
    for line in text.splitlines(keepends=True):
        if name is None:
            m = BEGIN.match(line)
            if m:
                name, body = m.group(1), []
        elif END.match(line):
            out[name] = ''.join(body)
            name = None
        else:
            body.append(line)
    return out


def overlay(base, variant_text):
    """base with each region the variant holds replaced by the variant's."""
    new = regions(variant_text)
    out, name = [], None
    for line in base.splitlines(keepends=True):
        if name is None:
            out.append(line)
            m = BEGIN.match(line)
            if m and m.group(1) in new:
                name = m.group(1)
                out.append(new[name])
        elif END.match(line):
            out.append(line)
            name = None
    return ''.join(out)


# A roster is graded with every runner item on, while a variant's ctest turns off those it is not
# written for: where an item then fails a variant with an earlier class, that is the roster's.
ROSTER_CLASS = {
    ('04', 'unpadded_tile'): 'technique_not_used',  # its 32-way conflicts, seen by the bank-conflict check
}

FILL_FROM = re.compile(r'^// FILL FROM: ([A-Za-z0-9_./]+)', re.M)

def variant_base(solution, variant_path, grader_dir):
    """What a region-overlay variant is laid over: the solution, or, where the variant says
    "// FILL FROM: <path>" (relative to the lab's grader folder), the solution with that file's
    regions in it (as the build does)."""
    m = FILL_FROM.search(open(variant_path).read())
    if not m:
        return solution
    return overlay(solution, open(os.path.join(grader_dir, m.group(1))).read())

def lab_classes(cmake_text, lab_id=''):
    """(wrong name -> class, correct names) from a lab's course_add_lab call."""
    wrong, correct = {}, []
    for m in re.finditer(r'(?<![\w:])(\w+):(\w+)((?::\w+)*)', cmake_text):
        if 'hole' in m.group(3).split(':'):
            continue  # a known hole ends as no class yet: not drawn
        wrong[m.group(1)] = ROSTER_CLASS.get((lab_id, m.group(1)), m.group(2))
    c = re.search(r'CORRECT((?:\s+\w+)+?)\s+WRONG', cmake_text)
    if c:
        correct = c.group(1).split()
    return wrong, correct


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('source')
    ap.add_argument('out')
    ap.add_argument('n', type=int)
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    labs = sorted(d for d in os.listdir(os.path.join(a.source, 'labs')) if re.match(r'\d\d-', d))
    pool = {}
    for lab in labs:
        src = [f for f in os.listdir(os.path.join(a.source, 'labs', lab)) if f.endswith('.cu')][0]
        starter = open(os.path.join(a.source, 'labs', lab, src)).read()
        solution = open(os.path.join(a.source, 'solutions', lab, src)).read()
        gdir = os.path.join(a.source, 'autograder', 'labs', lab)
        wrong, correct = lab_classes(open(os.path.join(gdir, 'CMakeLists.txt')).read(), lab[:2])
        choices = [('solution', solution), ('starter', starter)]
        for name in correct:
            p = os.path.join(gdir, 'correct', name + '.cu')
            if os.path.exists(p):
                choices.append(('correct:' + name, overlay(variant_base(solution, p, gdir), open(p).read())))
        for name, cls in wrong.items():
            p = os.path.join(gdir, 'wrong', name + '.cu')
            d = os.path.join(gdir, 'wrong', name, src)
            if os.path.exists(p):
                choices.append(('wrong:%s:%s' % (name, cls), overlay(variant_base(solution, p, gdir), open(p).read())))
            elif os.path.exists(d):
                choices.append(('wrong:%s:%s' % (name, cls), open(d).read()))
        pool[lab] = (src, choices)
    if os.path.exists(a.out):
        shutil.rmtree(a.out)
    expected = {}
    for i in range(a.n):
        student = 'student%02d' % i
        kind = 'solution' if i % 5 == 0 else 'starter' if i % 5 == 1 else 'mixed'
        expected[student] = {}
        for lab in labs:
            src, choices = pool[lab]
            label, text = (choices[0] if kind == 'solution' else choices[1] if kind == 'starter'
                           else rng.choice(choices))
            os.makedirs(os.path.join(a.out, student, lab))
            with open(os.path.join(a.out, student, lab, src), 'w') as f:
                f.write(text)
            expected[student][lab[:2]] = label
    with open(os.path.join(a.out, 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=1)
    print('%d submissions in %s' % (a.n, a.out))


if __name__ == '__main__':
    sys.exit(main())
