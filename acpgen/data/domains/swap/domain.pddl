; swap: agents exchange the roles (items) they hold; every agent holds exactly one role.
(define (domain swap)
    (:requirements :typing)
    (:types agent role - object)
    (:predicates (assigned ?a - agent ?r - role))
    (:action swap
        :parameters (?a1 - agent ?a2 - agent ?r1 - role ?r2 - role)
        :precondition (and (assigned ?a1 ?r1) (assigned ?a2 ?r2))
        :effect (and (assigned ?a1 ?r2) (assigned ?a2 ?r1) (not (assigned ?a1 ?r1)) (not (assigned ?a2 ?r2))))
)
