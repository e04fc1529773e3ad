; blocksworld-4ops: untyped blocks moved one at a time by a single hand
; (pick-up / put-down from and to the table, stack / unstack onto and off another block).
(define (domain blocksworld-4ops)
    (:requirements :strips)
    (:predicates (clear ?x) (handempty) (holding ?x) (on ?x ?y) (ontable ?x))
    (:action pick-up
        :parameters (?b)
        :precondition (and (clear ?b) (ontable ?b) (handempty))
        :effect (and (holding ?b) (not (clear ?b)) (not (ontable ?b)) (not (handempty))))
    (:action put-down
        :parameters (?b)
        :precondition (holding ?b)
        :effect (and (clear ?b) (handempty) (ontable ?b) (not (holding ?b))))
    (:action stack
        :parameters (?b ?under)
        :precondition (and (clear ?under) (holding ?b))
        :effect (and (handempty) (clear ?b) (on ?b ?under) (not (clear ?under)) (not (holding ?b))))
    (:action unstack
        :parameters (?b ?under)
        :precondition (and (on ?b ?under) (clear ?b) (handempty))
        :effect (and (holding ?b) (clear ?under) (not (on ?b ?under)) (not (clear ?b)) (not (handempty))))
)
